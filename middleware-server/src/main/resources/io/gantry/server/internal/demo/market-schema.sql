-- The demo market database, schema version 2: the tables of docs/sample-var-job.md. Portable SQL
-- (H2 and PostgreSQL), one statement per ';'. Result tables use "if not exists": an upgrade from
-- version 1 drops and regenerates the market tables only, and keeps every result row
-- (DemoMarket.createIfMissing).
create table if not exists demo_schema_version (
  version int not null primary key
);

-- The book hierarchy: every node by its full path (BANK/GANTRY-US/MARKETS/EQ-US), its parent
-- and what it is; node_ancestor holds every (ancestor, node) pair, a node its own ancestor, so
-- "every position under node X" is one exact join (no LIKE on paths).
create table hierarchy_node (
  node varchar(200) primary key,
  parent varchar(200) references hierarchy_node(node),
  name varchar(64) not null,
  node_kind varchar(16) not null check (node_kind in ('bank', 'legal-entity', 'business-line', 'desk')),
  description varchar(200) not null
);
create table node_ancestor (
  ancestor varchar(200) not null references hierarchy_node(node),
  node varchar(200) not null references hierarchy_node(node),
  primary key (ancestor, node)
);
-- A desk's book: its positions hang off the desk's node.
create table portfolio (
  portfolio_id varchar(32) primary key,
  name varchar(200) not null,
  node varchar(200) not null references hierarchy_node(node),
  currency char(3) not null
);

-- What a factor is (its levels are the closes in factor_history): the factors input's columns
-- but level (node-programs/README.md).
create table risk_factor (
  factor_id varchar(32) primary key,
  kind varchar(16) not null check (kind in ('equity', 'fx', 'rate', 'vol')),
  currency char(3),
  quote char(6),
  return_type varchar(16) not null check (return_type in ('log', 'absolute', 'relative', 'shifted-log')),
  shift decimal(12,8),
  curve varchar(32),
  tenor_years decimal(10,6),
  description varchar(200) not null
);
-- Daily closes, business days only; the close of a business date is that date's level.
create table factor_history (
  as_of date not null,
  factor_id varchar(32) not null references risk_factor(factor_id),
  level decimal(20,10) not null,
  primary key (as_of, factor_id)
);
-- The book as of each business date (a position may be opened or closed between two dates;
-- maturity_years is counted from that date).
create table position (
  business_date date not null,
  position_id varchar(32) not null,
  portfolio_id varchar(32) not null references portfolio(portfolio_id),
  instrument varchar(16) not null check (instrument in ('spot', 'cash', 'zcb', 'fx-forward', 'call', 'put')),
  factor_id varchar(32) references risk_factor(factor_id),
  rate_factor_id varchar(32) references risk_factor(factor_id),
  foreign_rate_factor_id varchar(32) references risk_factor(factor_id),
  vol_factor_id varchar(32) references risk_factor(factor_id),
  curve varchar(32),
  currency char(3) not null,
  quantity decimal(20,6) not null,
  strike decimal(20,10),
  maturity_years decimal(12,6),
  volatility decimal(12,8),
  primary key (business_date, position_id)
);
-- Every factor a position needs: its own, its discount and foreign rates, its implied volatility,
-- every point of its curve, and every FX rate (a value in another currency is converted to the
-- base currency at the scenario's FX levels).
create view position_factor as
  select business_date, portfolio_id, factor_id from position where factor_id is not null
  union select business_date, portfolio_id, rate_factor_id from position where rate_factor_id is not null
  union select business_date, portfolio_id, foreign_rate_factor_id from position
    where foreign_rate_factor_id is not null
  union select business_date, portfolio_id, vol_factor_id from position where vol_factor_id is not null
  union select p.business_date, p.portfolio_id, f.factor_id from position p
    join risk_factor f on f.curve = p.curve
  union select p.business_date, p.portfolio_id, f.factor_id from position p
    join risk_factor f on f.kind = 'fx';
create table var_run_parameter (
  run_name varchar(64) not null,
  name varchar(64) not null,
  value varchar(200) not null,
  primary key (run_name, name)
);
-- Hypothetical P&L per desk and day (base currency): for backtesting (docs/sample-var-job.md).
create table desk_pnl (
  business_date date not null,
  node varchar(200) not null references hierarchy_node(node),
  currency char(3) not null,
  hypothetical_pnl double precision not null,
  primary key (business_date, node)
);

-- Results of mcvar 2 (node-programs/README.md), one table per output file, the file's columns
-- in its order; every row carries run id, business date and (for node results) the node path.
create table if not exists var_run (
  run_id varchar(64) not null primary key,
  business_date date not null,
  method varchar(32) not null,
  horizon_days int not null,
  scenarios bigint not null,
  seed bigint not null,
  lookback_days int,
  ewma_lambda double precision,
  base_currency char(3) not null,
  confidence_levels varchar(200) not null,
  program_version varchar(64) not null,
  stress_from date,
  stress_to date
);
create table if not exists var_run_input (
  run_id varchar(64) not null,
  business_date date not null,
  input varchar(32) not null,
  file_name varchar(255) not null,
  sha256 char(64) not null,
  primary key (run_id, input)
);
create table if not exists var_node_summary (
  run_id varchar(64) not null,
  business_date date not null,
  node varchar(200) not null,
  confidence decimal(8,6) not null,
  var double precision not null,
  expected_shortfall double precision not null,
  var_stderr double precision,
  es_stderr double precision,
  pnl_mean double precision not null,
  pnl_stddev double precision not null,
  scenarios bigint not null,
  diversification_var double precision,
  diversification_es double precision,
  primary key (run_id, node, confidence)
);
create table if not exists var_node_pnl_distribution (
  run_id varchar(64) not null,
  business_date date not null,
  node varchar(200) not null,
  bin int not null,
  lower double precision not null,
  upper double precision not null,
  count bigint not null,
  primary key (run_id, node, bin)
);
create table if not exists var_position_contribution (
  run_id varchar(64) not null,
  business_date date not null,
  node varchar(200) not null,
  position_id varchar(32) not null,
  confidence decimal(8,6) not null,
  var_contribution double precision not null,
  es_contribution double precision not null,
  marginal_var double precision,
  primary key (run_id, node, position_id, confidence)
);
create table if not exists var_node_contribution (
  run_id varchar(64) not null,
  business_date date not null,
  node varchar(200) not null,
  child_node varchar(200) not null,
  confidence decimal(8,6) not null,
  var_contribution double precision not null,
  es_contribution double precision not null,
  primary key (run_id, node, child_node, confidence)
);
create table if not exists var_tail_scenario (
  run_id varchar(64) not null,
  business_date date not null,
  node varchar(200) not null,
  confidence decimal(8,6) not null,
  rank int not null,
  scenario bigint not null,
  from_date date,
  to_date date,
  pnl double precision not null,
  primary key (run_id, node, confidence, rank)
);
-- data_quality.csv's column "check" is check_name here (CHECK is an SQL keyword).
create table if not exists var_data_quality (
  run_id varchar(64) not null,
  business_date date not null,
  file varchar(255) not null,
  line bigint,
  factor_id varchar(32),
  check_name varchar(64) not null,
  value varchar(200),
  action varchar(32) not null
);

-- Results of mcvar 1 (one flat book per run, keyed by run id only): kept so that rows loaded
-- before the upgrade, and templates written for mcvar 1, still have their tables.
create table if not exists var_summary (
  run_id varchar(64) not null,
  confidence decimal(8,6) not null,
  var double precision not null,
  expected_shortfall double precision not null,
  pnl_mean double precision not null,
  pnl_stddev double precision not null,
  scenarios bigint not null,
  primary key (run_id, confidence)
);
create table if not exists var_pnl_distribution (
  run_id varchar(64) not null,
  bin int not null,
  lower double precision not null,
  upper double precision not null,
  count bigint not null,
  primary key (run_id, bin)
);
create table if not exists var_contribution (
  run_id varchar(64) not null,
  position_id varchar(32) not null,
  confidence decimal(8,6) not null,
  contribution double precision not null,
  primary key (run_id, position_id, confidence)
);
