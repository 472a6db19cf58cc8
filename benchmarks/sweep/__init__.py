"""Sweeps: how often can a trial be won with a starting hand? Many deals solved, stored, reported.

``heritage sweep run`` solves every deal (trial, hand, seed, die seed) of its options with one
budget and bound, on a process pool or a Dask cluster, and stores a row per deal in SQLite;
``heritage sweep report`` gives per trial and hand the winnable rate with a 95% confidence
interval, and the VP; ``heritage sweep export`` writes one stored deal as a line file.

Modules, in the order a sweep flows through them:

* `plan`: the options (ranges of trials, hands, seeds, die seeds; the budget) as a `Sweep`
  and its `Task`s, plain values;
* `tasks`: `solve_deal`, the task a worker runs (deal, solve, line), and the worker identity
  (heritage version, card/chest data sha256) every worker must share;
* `backend`, `pool`, `cluster`: where tasks run: worker processes on this machine, or Dask;
* `run`: the collecting loop (hand out, collect, retry, store, interrupts);
* `store`: the SQLite database, one row per deal;
* `report`, `heatmap`: the report table, its JSON and the PNG heat map;
* `export`: a stored deal as a line file.
"""
