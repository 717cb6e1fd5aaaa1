typedef int mcvar_report_placeholder;
