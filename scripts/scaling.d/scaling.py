#!/usr/bin/env python3
"""Inputs and timings for scripts/scaling.

  scaling.py BINARY [--reps N] [--only AXIS[,AXIS...]] [--scales 1,10,100] [--wall] [--limit SECONDS]

Each axis is a function building, in a folder of its own, what one run needs at size n
(a script, a CSV file, a SQLite file, a store made by Quarry beforehand, untimed) and
returning the command line and its standard input. Every run must exit 0 and print the
answer the axis expects: a run that fails is a failure of the measurement, not a time.
"""
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

LIMIT = 60.0  # seconds a run may take before it is stopped
WALL = False  # --wall: wall-clock time instead of CPU time


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def run_untimed(binary, argv, stdin=None):
    """Builds a store with Quarry itself (not timed); fails loudly."""
    with open(stdin or os.devnull) as inp:
        p = subprocess.run([binary] + argv, stdin=inp, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"scaling: preparing {argv} failed: {p.stderr.strip()}")


# --- axes: each returns (argv, stdin path or None, expected text in stdout or None) ---


def empty(binary, d, n):
    return [":memory:", "-e", ""], None, None


def entities(binary, d, n):
    lines = [f'entity "E{i}" {{ a = "string?", b = "int?", c = "double?" }}' for i in range(n)]
    lines.append("print(#entities())")
    return [":memory:", write(f"{d}/s.lua", "\n".join(lines) + "\n")], None, f"{n}\n"


def attributes(binary, d, n):
    attrs = ", ".join(f'a{i} = "int?"' for i in range(n))
    script = (
        f'entity "Wide" {{ {attrs} }}\n'
        f"local o = Wide:new{{ a0 = 1, a{n - 1} = 2 }}\nsave()\n"
        f'print(count("Wide", "a{n - 1} == 2"), fetch("Wide")[1].a{n - 1})\n'
    )
    return [":memory:", write(f"{d}/s.lua", script)], None, "1\t2\n"


def relationships(binary, d, n):
    leaf = ", ".join(f'hubs{i} = {{ many = "Hub", inverse = "r{i}" }}' for i in range(n))
    hub = ", ".join(f'r{i} = {{ one = "Leaf", inverse = "hubs{i}" }}' for i in range(n))
    script = (
        f'entity "Leaf" {{ v = "int?", {leaf} }}\nentity "Hub" {{ {hub} }}\n'
        f"local l = Leaf:new{{ v = 1 }}\nlocal h = Hub:new{{ r{n - 1} = l }}\nsave()\n"
        f'print(count("Hub", "r{n - 1}.v == 1"), #l.hubs{n - 1})\n'
    )
    return [":memory:", write(f"{d}/s.lua", script)], None, "1\t1\n"


def foreign_tables(binary, d, n):
    db = f"{d}/f.sqlite"
    c = sqlite3.connect(db)
    c.execute("CREATE TABLE t0 (id INTEGER PRIMARY KEY, name TEXT)")
    for i in range(1, n):
        c.execute(f"CREATE TABLE t{i} (id INTEGER PRIMARY KEY, name TEXT, t0_id INTEGER REFERENCES t0(id))")
    c.executemany("INSERT INTO t0 (name) VALUES (?)", [(str(i),) for i in range(10)])
    c.commit()
    c.close()
    return [db, "-e", 'print(count("t0"))'], None, "10\n"


def views(binary, d, n):
    db = f"{d}/v.sqlite"
    c = sqlite3.connect(db)
    c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
    c.executemany("INSERT INTO t (x) VALUES (?)", [(i,) for i in range(100)])
    for i in range(n):
        c.execute(f"CREATE VIEW v{i} AS SELECT id, x FROM t WHERE x >= {i % 100}")
    c.commit()
    c.close()
    return [db, "-e", f'print(count("v{n - 1}"), #entities())'], None, f"{100 - (n - 1) % 100}\t{n + 1}\n"


def notes(binary, d, n):
    # Views over a table that is then dropped: SQLite cannot read them, so each is left
    # out with a note at the open.
    db = f"{d}/n.sqlite"
    c = sqlite3.connect(db)
    c.execute("CREATE TABLE kept (id INTEGER PRIMARY KEY, x INTEGER)")
    c.execute("CREATE TABLE gone (id INTEGER PRIMARY KEY, x INTEGER)")
    for i in range(n):
        c.execute(f"CREATE VIEW broken{i} AS SELECT x FROM gone")
    c.execute("DROP TABLE gone")
    c.commit()
    c.close()
    return [db, "-e", 'print(count("kept"))'], None, "0\n"


def digits_add(binary, d, n):
    a, b = "7" * n, "3" * n
    script = (
        f'local a = decimal("{a}.25")\nlocal b = decimal("{b}.5")\nlocal s\n'
        "for i = 1, 100 do s = tostring(a + b - a + b) end\n"
        "print(#s)\n"
    )
    return [":memory:", write(f"{d}/s.lua", script)], None, f"{n + 3}\n"


def digits_mul(binary, d, n):
    # Schoolbook multiplication and long division are quadratic in the digits by nature
    # (PostgreSQL's numeric too); the row is there to show it stays no worse.
    a, b = "7" * n, "3" * n
    script = (
        f'local a = decimal("{a}.25")\nlocal b = decimal("{b}.5")\nlocal s\n'
        "for i = 1, 10 do s = tostring(a * b) end\n"
        "print(#s >= 2 * #tostring(b) - 4)\n"
    )
    return [":memory:", write(f"{d}/s.lua", script)], None, "true\n"


def keypath(binary, d, n):
    db = f"{d}/k.quarry"
    prep = (
        'entity "Node" { v = "int?", next = { one = "Node", inverse = "prev" }, '
        'prev = { many = "Node", inverse = "next" } }\n'
        f"local last = nil\nfor i = 0, {n} do last = Node:new{{ v = i, next = last }} end\nsave()\n"
    )
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    path = ".".join(["next"] * n) + ".v"
    # Past 16 relationships the predicate is refused in one line (SQLite nests no deeper):
    # the time to say so is what a user sees there.
    script = f'local ok, e = pcall(count, "Node", "{path} == 0")\nprint(ok and e or "refused")\n'
    return [db, write(f"{d}/s.lua", script)], None, ("1\n" if n <= 16 else "refused\n")


def or_terms(binary, d, n):
    db = f"{d}/o.quarry"
    prep = 'entity "T" { x = "int?" }\nfor i = 1, 1000 do T:new{ x = i } end\nsave()\n'
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    pred = " OR ".join(["x == %@"] * n)
    # The arguments through table.unpack: a call written with more than ~250 arguments
    # is more than Lua's registers hold.
    script = f'local a = {{}}\nfor i = 1, {n} do a[i] = i end\nprint(count("T", "{pred}", table.unpack(a)))\n'
    return [db, write(f"{d}/s.lua", script)], None, f"{min(n, 1000)}\n"


def in_list(binary, d, n):
    db = f"{d}/i.quarry"
    prep = 'entity "T" { x = "int?" }\nfor i = 1, 1000 do T:new{ x = i } end\nsave()\n'
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    args = ", ".join(str(i + 1) for i in range(n))
    script = f'print(count("T", "x IN %@", {{ {args} }}), #fetch("T", "x IN %@", {{ {args} }}))\n'
    m = min(n, 1000)
    return [db, write(f"{d}/s.lua", script)], None, f"{m}\t{m}\n"


def sort_keys(binary, d, n):
    db = f"{d}/s.quarry"
    attrs = ", ".join(f'a{i} = "int?"' for i in range(n))
    sets = ", ".join(f"a{i} = (i * {i + 7}) % 13" for i in range(n))
    prep = f'entity "S" {{ {attrs} }}\nfor i = 1, 100 do S:new{{ {sets} }} end\nsave()\n'
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    keys = ", ".join(f'"{"-" if i % 2 else ""}a{i}"' for i in range(n))
    script = f"local r = fetch{{ \"S\", sort = {{ {keys} }} }}\nprint(#r)\n"
    return [db, write(f"{d}/s.lua", script)], None, "100\n"


def schema(binary, d, n):
    db = f"{d}/m.quarry"
    lines = [
        f'entity "E{i}" {{ a = "string?", b = "int?", c = "double?", '
        f'up = {{ one = "E{max(i - 1, 0)}", inverse = "down{i}" }} }}'
        for i in range(n)
    ]
    run_untimed(binary, [db, write(f"{d}/prep.lua", "\n".join(lines) + "\n")])
    cmds = write(f"{d}/cmds", ".entities\n.schema\n")
    return [db, "-"], cmds, f"E{n - 1}"


def csv_columns(binary, d, n):
    header = ",".join(f"c{i}" for i in range(n))
    rows = [",".join(str(r * n + i) for i in range(n)) for r in range(200)]
    csv = write(f"{d}/w.csv", header + "\n" + "\n".join(rows) + "\n")
    return [":memory:", "-e", f'print(import("{csv}", {{ entity = "W" }}))'], None, "200\n"


def observers(binary, d, n):
    db = f"{d}/b.quarry"
    prep = 'entity "T" { x = "int?" }\nfor i = 1, 100 do T:new{ x = i } end\nsave()\n'
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    script = (
        "local heard = 0\nlocal keep = {}\n"
        f"for i = 1, {n} do\n"
        '  local r = fetch("T", "x > %@", i % 100)\n'
        "  keep[i] = observe(r, function(ev) heard = heard + 1 end)\n"
        "end\n"
        'for _, o in ipairs(fetch("T", "x <= 10")) do o.x = o.x + 1000 end\n'
        "save()\nprint(heard > 0)\n"
    )
    return [db, write(f"{d}/s.lua", script)], None, "true\n"


def save_objects(binary, d, n):
    db = f"{d}/c.quarry"
    prep = f'entity "T" {{ x = "int?" }}\nfor i = 1, {n} do T:new{{ x = i }} end\nsave()\n'
    run_untimed(binary, [db, write(f"{d}/prep.lua", prep)])
    script = 'for _, o in ipairs(fetch("T")) do o.x = o.x + 1 end\nprint(save().updated)\n'
    return [db, write(f"{d}/s.lua", script)], None, f"{n}\n"


# (name, function, 1x size, what the size counts)
AXES = [
    ("entities", entities, 30, "entity{} in one script"),
    ("attributes", attributes, 15, "attributes of one entity"),
    ("relationships", relationships, 5, "to-ones of one entity (and inverses)"),
    ("foreign-tables", foreign_tables, 20, "tables of a foreign file, open+count"),
    ("views", views, 10, "views of a foreign file, open+count"),
    ("notes", notes, 10, "unreadable views, one note each"),
    ("decimal-add", digits_add, 40, "digits, 100x (+, -, tostring)"),
    ("decimal-mul", digits_mul, 40, "digits, 10x (*, tostring)"),
    ("keypath", keypath, 1, "relationships in a key path (over 16 refused)"),
    ("or-terms", or_terms, 5, "OR-ed terms with %@ (SQLite: depth < 1000)"),
    ("in-list", in_list, 100, "arguments of IN %@"),
    ("sort-keys", sort_keys, 3, "sort descriptors, 100 rows"),
    ("schema", schema, 30, "entities, .entities + .schema"),
    ("csv-columns", csv_columns, 15, "CSV columns, 200 rows"),
    ("observers", observers, 10, "observed results, one save"),
    ("save", save_objects, 1000, "objects changed in one save"),
]


def timed(binary, argv, stdin, expected):
    """One run: its CPU seconds (user + system, threads included), or its wall seconds
    with --wall; None when stopped at LIMIT (wall). CPU time is the default because the
    machine is shared: another process's load stretches a run's wall time several-fold,
    not the work it does."""
    with open(stdin or os.devnull) as inp:
        t0 = time.monotonic()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run([binary] + argv, stdin=inp, capture_output=True, text=True, timeout=LIMIT)
        except subprocess.TimeoutExpired:
            return None
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.monotonic() - t0
        if not WALL:
            t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0 or (expected is not None and expected not in p.stdout):
        sys.exit(
            f"scaling: {argv[:2]} exited {p.returncode}, expected {expected!r}\n"
            f"stdout: {p.stdout[-500:]}\nstderr: {p.stderr[-500:]}"
        )
    return t


def measure(binary, fn, n, reps, work):
    d = tempfile.mkdtemp(dir=work)
    argv, stdin, expected = fn(binary, d, n)
    times = []
    for _ in range(reps):
        t = timed(binary, argv, stdin, expected)
        if t is None:
            shutil.rmtree(d, ignore_errors=True)
            return None
        times.append(t)
    shutil.rmtree(d, ignore_errors=True)
    return statistics.median(times)


def show(t):
    if t is None:
        return f">{LIMIT:g} s"
    return f"{t:.3f} s" if t >= 1 else f"{t * 1000:.0f} ms"


def ratio(a, b):
    if a is None or b is None:
        return "-"
    return f"{b / max(a, 0.001):.1f}"


def main():
    args = sys.argv[1:]
    binary = args.pop(0)
    reps, only, scales = 3, None, [1, 10, 100]
    while args:
        a = args.pop(0)
        if a == "--reps":
            reps = int(args.pop(0))
        elif a == "--only":
            only = set(args.pop(0).split(","))
        elif a == "--wall":
            global WALL
            WALL = True
        elif a == "--limit":
            # Wall seconds a run may take: under load, a run's CPU time is a fraction of it.
            global LIMIT
            LIMIT = float(args.pop(0))
        elif a == "--scales":
            scales = [int(s) for s in args.pop(0).split(",")]
        else:
            sys.exit(f"scaling: unknown argument {a}")
    work = tempfile.mkdtemp(prefix="quarry-scaling.")
    try:
        base = measure(binary, empty, 0, max(reps, 5), work)
        kind = "wall" if WALL else "CPU (user + system)"
        print(f"{kind} time; empty run (start-up, subtracted below): {show(base)}; median of {reps} runs; {binary}")
        print()
        head = ["axis", "1x", "what", *[f"{s}x" for s in scales], "10x/1x", "100x/10x"]
        print("| " + " | ".join(head) + " |")
        print("| " + " | ".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + " |")
        sys.stdout.flush()
        for name, fn, size, what in AXES:
            if only and name not in only:
                continue
            ts = []
            for s in scales:
                if ts and ts[-1] is None:
                    ts.append(None)  # the smaller size already passed the limit
                    continue
                t = measure(binary, fn, size * s, reps, work)
                ts.append(None if t is None else max(t - base, 0.0))
            by = dict(zip(scales, ts))
            cells = [name, str(size), what, *[show(t) for t in ts]]
            cells += [ratio(by.get(1), by.get(10)), ratio(by.get(10), by.get(100))]
            print("| " + " | ".join(cells) + " |")
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
