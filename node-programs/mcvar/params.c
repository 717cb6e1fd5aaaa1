typedef int mcvar_params_placeholder;
