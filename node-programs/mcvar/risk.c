typedef int mcvar_risk_placeholder;
