-- The calling-layer benchmark's workload: 1,000,000 orders of 10,000 customers, exactly 100 orders each.
-- Deterministic (no random()), so every run and every peer reads the same rows. Loaded by bench/lib/calling-setup.ts
-- into database bench_calling when it is missing.
drop table if exists orders;
create table orders (
  id          integer primary key,
  customer_id integer not null,
  region      text not null,
  amount      numeric(12,2) not null,
  created_at  timestamptz not null,
  note        text not null  -- 40 characters
);
insert into orders (id, customer_id, region, amount, created_at, note)
select n,
       1 + ((n::bigint * 7919) % 10000)::int,
       (array['north', 'south', 'east', 'west', 'central'])[1 + n % 5],
       ((n::bigint * 37) % 100000) / 100.0,
       timestamptz '2024-01-01 00:00:00+00' + (n * interval '30 seconds'),
       'order note ' || substr(md5(n::text), 1, 29)
from generate_series(1, 1000000) as n;
create index orders_customer_id_idx on orders (customer_id);
vacuum analyze orders;
