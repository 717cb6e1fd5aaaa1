typedef int mcvar_inputs_placeholder;
