"""The constraint layer: a CP-SAT relaxation of the rest of the game (issue "Constraint layer").

Search finds lines; this layer says how good a line can possibly be, and when no line can meet
the goals. Modules, in the order they build on each other:

* `schedule`: where in the turn a position is (`phase_of`), the turns still to play and their
  decline capacities (`build_schedule`), the Timeline as a DAG of slides (networkx), and the
  technology requirement graph (networkx).
* `resources`: what one activation of a card effect can yield at most (cards, knowledge
  removal, Learns, Creates, moves...), read from the card data.
* `relaxation`: the CP-SAT model (its docstring lists every relaxation and why it can only
  overestimate) and its plan.
* `bound`: the cached, deterministic bound API (`relaxed_bound`, `root_bound`, `node_bound`)
  and the plan's move ordering (`plan_order`), used by `solver.solve` with
  ``SolveConfig(bound="cpsat")`` (``heritage solve --bound cpsat``).
* `figures`: the before/after measurement (``python -m solver.constraints.figures``).
"""
