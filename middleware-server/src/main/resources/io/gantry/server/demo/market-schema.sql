-- The demo market database: the tables of docs/sample-var-job.md. Portable SQL (H2 and
-- PostgreSQL), one statement per ';'.
create table risk_factor (
  factor_id varchar(32) primary key,
  kind varchar(16) not null check (kind in ('equity', 'fx', 'rate')),
  level decimal(20,10) not null
);
create table factor_history (
  as_of date not null,
  factor_id varchar(32) not null references risk_factor(factor_id),
  level decimal(20,10) not null,
  primary key (as_of, factor_id)
);
create table portfolio (
  portfolio_id varchar(32) primary key,
  name varchar(200) not null
);
create table position (
  position_id varchar(32) primary key,
  portfolio_id varchar(32) not null references portfolio(portfolio_id),
  instrument varchar(16) not null check (instrument in ('spot', 'zcb', 'call', 'put')),
  factor_id varchar(32) not null references risk_factor(factor_id),
  rate_factor_id varchar(32) references risk_factor(factor_id),
  quantity decimal(20,6) not null,
  strike decimal(20,10),
  maturity_years decimal(12,6),
  volatility decimal(12,8)
);
create table var_run_parameter (
  run_name varchar(64) not null,
  name varchar(64) not null,
  value varchar(200) not null,
  primary key (run_name, name)
);
create table var_summary (
  run_id varchar(64) not null,
  confidence decimal(8,6) not null,
  var double precision not null,
  expected_shortfall double precision not null,
  pnl_mean double precision not null,
  pnl_stddev double precision not null,
  scenarios bigint not null,
  primary key (run_id, confidence)
);
create table var_pnl_distribution (
  run_id varchar(64) not null,
  bin int not null,
  lower double precision not null,
  upper double precision not null,
  count bigint not null,
  primary key (run_id, bin)
);
create table var_contribution (
  run_id varchar(64) not null,
  position_id varchar(32) not null,
  confidence decimal(8,6) not null,
  contribution double precision not null,
  primary key (run_id, position_id, confidence)
);
