typedef int mcvar_rng_placeholder;
