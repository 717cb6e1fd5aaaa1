typedef int mcvar_csv_placeholder;
