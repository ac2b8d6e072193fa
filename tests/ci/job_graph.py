"""Checks the job graph of a CI file, what a JSON schema cannot: every job's
stage is a declared stage (GitLab), every job a job needs exists, comes no
later (GitLab: its stage is not after the job's) and the needs form no cycle.
The suite runs it after check-jsonschema's schema check (src/ci/ci_test.cpp).

usage: python job_graph.py --github|--gitlab FILE
Prints one line per error (FILE: JOB: ...) and exits 1 on any, else 0.
"""
import sys

from ruamel.yaml import YAML

# Top-level keys of .gitlab-ci.yml that are not jobs (GitLab's CI/CD YAML reference).
GITLAB_GLOBAL = {"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                 "before_script", "after_script", "spec"}
GITLAB_DEFAULT_STAGES = [".pre", "build", "test", "deploy", ".post"]


def needs_of(value):
    """The job names a needs: value lists (a name, a list of names or of {job: NAME} maps)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    names = []
    for n in value:
        names.append(n["job"] if isinstance(n, dict) else n)
    return names


def cycles(graph):
    """The jobs on a needs cycle, found by depth-first search."""
    state, on_cycle = {}, set()

    def visit(job, path):
        state[job] = 1
        for n in graph.get(job, []):
            if state.get(n) == 1:
                on_cycle.update(path[path.index(n):])
            elif n in graph and not state.get(n):
                visit(n, path + [n])
        state[job] = 2

    for job in graph:
        if not state.get(job):
            visit(job, [job])
    return sorted(on_cycle)


def check(kind, doc):
    errors = []
    if kind == "--github":
        jobs = doc.get("jobs") or {}
        graph = {name: needs_of(job.get("needs")) for name, job in jobs.items()}
        for name, needs in graph.items():
            for n in needs:
                if n not in jobs:
                    errors.append(f"{name}: needs '{n}', which is no job")
    else:
        stages = list(doc.get("stages") or GITLAB_DEFAULT_STAGES)
        order = {s: i for i, s in enumerate([".pre"] + stages + [".post"])}
        jobs = {k: v for k, v in doc.items() if k not in GITLAB_GLOBAL and not str(k).startswith(".")}
        graph = {}
        for name, job in jobs.items():
            stage = job.get("stage", "test")
            if stage not in order:
                errors.append(f"{name}: stage '{stage}' is not in stages ({', '.join(stages)})")
            graph[name] = needs_of(job.get("needs"))
            for n in graph[name]:
                if n not in jobs:
                    errors.append(f"{name}: needs '{n}', which is no job")
                elif stage in order and order.get(jobs[n].get("stage", "test"), 0) > order[stage]:
                    errors.append(f"{name}: needs '{n}', whose stage comes later")
    for job in cycles(graph):
        errors.append(f"{job}: on a needs cycle")
    return errors


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        doc = YAML(typ="safe").load(f)
    errors = check(kind, doc or {})
    for e in errors:
        print(f"{path}: {e}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
