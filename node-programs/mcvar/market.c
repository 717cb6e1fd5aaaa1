typedef int mcvar_market_placeholder;
