"""Handlers enqueue jobs by name (they never import workers): every name resolves to a function in
`workers/` that accepts the arguments it is enqueued with. Read from the source, so a new call is covered."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import NamedTuple

import pytest

from workers.allowed import ALLOWED_JOBS  # the worker refuses any job named outside this list

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
#: How each enqueueing helper names its jobs, by package: in handlers `deps.enqueue("advance", ...)` is
#: `workers.jobs.advance`; in workers RQ's own `queue.enqueue` takes full names, `ctx.later` short ones.
HELPERS = {
    "handlers": {"enqueue": "workers.jobs.", "enqueue_offer": "workers.offers.", "enqueue_in": ""},
    "workers": {"enqueue": "", "enqueue_in": "", "later": "workers.jobs."},
}
#: Helpers whose first argument is a delay, before the job's name.
DELAYED = {"enqueue_in", "later"}


class Call(NamedTuple):
    where: str
    job: str
    args: int
    keywords: tuple[str, ...]
    helper: str


def enqueued(package: str) -> list[Call]:
    """Every `<x>.enqueue("name", ...)`-like call with a literal job name in a package's source."""
    calls = []
    for path in sorted((ROOT / package).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            prefix = HELPERS[package].get(node.func.attr)
            args = node.args[1:] if node.func.attr in DELAYED else node.args  # enqueue_in(delay, name, ...)
            if prefix is None or not args or not isinstance(args[0], ast.Constant):
                continue
            name = str(args[0].value)
            job = name if name.startswith("workers.") else prefix + name
            if package == "workers" and not job.startswith("workers."):
                continue  # another service's job (management_talk.rewrite), not ours to resolve
            assert not any(isinstance(a, ast.Starred) for a in args), f"{path.name}:{node.lineno}: *args"
            calls.append(
                Call(
                    f"{path.name}:{node.lineno}",
                    job,
                    len(args) - 1,
                    tuple(k.arg for k in node.keywords if k.arg),
                    node.func.attr,
                )
            )
    return calls


CALLS = enqueued("handlers") + enqueued("workers")


def test_the_scan_finds_the_jobs_the_handlers_enqueue() -> None:
    jobs = {c.job for c in CALLS}
    assert {
        "workers.jobs.advance",
        "workers.jobs.perform",
        "workers.jobs.handoff",
        "workers.offers.start_reply",
        "workers.offers.offer_assignee",
        "workers.jobs.post_comment",
        "workers.jobs.render",
        "workers.jobs.remove_duplicates",
        "workers.jobs.remove_followup_duplicates",
    } <= jobs
    rescheduled = {c.job for c in CALLS if c.where.startswith(("drafting.py", "approved.py", "jobs.py"))}
    assert {
        "workers.jobs.render",
        "workers.jobs.post_comment",
        "workers.jobs.advance",
        "workers.jobs.perform",
    } <= rescheduled  # WorkerContext.later(delay, name, ...)


@pytest.mark.parametrize("call", CALLS, ids=lambda c: f"{c.where}-{c.job}")
def test_each_enqueued_job_is_a_worker_function_taking_its_arguments(call: Call) -> None:
    module, _, name = call.job.rpartition(".")
    function = getattr(importlib.import_module(module), name, None)
    assert callable(function), f"{call.where}: {call.job} is not a function in {module}"
    rq_options = {"job_id", "job_timeout", "result_ttl", "ttl", "depends_on", "at_front", "retry", "meta"}
    if call.helper == "later":
        rq_options.add("mark")  # WorkerContext.later's own option, not the job's
    signature = inspect.signature(function)
    signature.bind(*range(call.args), **{k: None for k in call.keywords if k not in rq_options})


@pytest.mark.parametrize("call", CALLS, ids=lambda c: f"{c.where}-{c.job}")
def test_each_enqueued_job_is_on_the_workers_allow_list(call: Call) -> None:
    assert call.job in ALLOWED_JOBS, f"{call.where}: {call.job} would be refused by the worker"
