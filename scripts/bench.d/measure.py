#!/usr/bin/env python3
"""Timing helper for scripts/bench.

  measure.py run RESULTS WORKLOAD SIDE [--stdin FILE] [--timeout S] [--warmup] -- CMD...
      Runs CMD once (stdout and stderr to files), and appends one JSON record to RESULTS:
      whole-process wall time, peak RSS (ru_maxrss of the child, from wait4), the time the
      process measured itself, its answer (stdout less timing lines) and its status.
      The in-process time is read from a line `BENCH_TIME s` (stdout or stderr), from the
      pair `BENCH_T0 t` / `BENCH_T1 t`, or from sqlite3's `.timer` line `Run Time: real s`;
      lines `BENCH_FIGURE name value` are kept as named figures (workloads 6 and 7).
      Exits 1 when CMD failed or timed out.
  measure.py answer RESULTS WORKLOAD SIDE VALUE
      Records an answer checked outside the timed runs (e.g. rows after an import).
  measure.py report RESULTS [--scale N]
      Prints the table: medians, ratio Quarry/peer, target, PASS/MISS, peak RSS
      (--scale: the workloads ran on flights.csv repeated N times).
  measure.py wall RESULTS WORKLOAD SIDE
      Prints the whole-process time of the last run (to stop repeating a slow one).
  measure.py count-rows csv|json FILE
      Prints the number of rows in an exported file.
"""
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time

# (key, title, peer, target ratio Quarry/peer or None, limit on Quarry's peak RSS in
# MiB or None, timings judged: "both", "process" for a workload timed only whole,
# "process+" for one whose target is set on the whole process, its in-process time shown
# for information, or "inproc+" for one whose target is set on the in-process time, its
# whole process shown for information). The targets are issue 84's: 0c 1.15x, key paths
# 1.1x as whole processes, summarize 0.25x as a whole process, exports 0.5x, a Core Data
# store's second open 3x, a save of new objects 1.2x in-process and of changed ones 2x,
# P8 1.5x as a whole process. Two are lines to hold, their earlier targets withdrawn:
# the import at 0.42x (0.35x withdrawn: the import keeps WAL) and a first Core Data open
# at 4.5x (3x withdrawn: notes stay at open). The loop's 1.0x is against a peer reading
# every column (LuaSQL's `select *`, line 5), as an object holds its whole row; the loop
# against LuaSQL reading two columns (5b) is for information.
# Workloads judged on each side's fastest run rather than its median. The Lua loop runs
# for a few hundred milliseconds on a machine shared with other work, where both sides'
# runs fall into a fast and a slow group (another process on the other core): a median
# of seven then compares one side's fast group with the other's slow one, by chance
# (1.25x in one run, 1.78x in the next, the same binaries). Interference only adds
# time, so the fastest run of each side is the least disturbed; both sides are treated
# alike, and the medians are still shown (for information).
FASTEST = {"loop", "loop_two"}
# Workloads that print a table whose first column is an integer key, one row a line.
TABLE_ROWS = {"pg_print"}
TABLE_ROW = re.compile(r"^ *[0-9]+ +\|", re.MULTILINE)

WORKLOADS = [
    ("startup", "0 start-up, no work", "sqlite3", None, None, "both"),
    ("startup_e", "0b start-up, -e 'local x = 1'", "lua5.4 -e", 1.5, None, "process"),
    ("startup_floor", "0c start-up, -e 'local x = 1'", "empty Swift", 1.15, None, "process"),
    ("startup_foreign", "0d open a foreign file of 60 tables", "sqlite3", None, None, "process"),
    ("import", "1 import flights.csv", "sqlite3 .import", 0.42, 150, "both"),
    ("count", "2 count, filtered", "sqlite3", 1.5, None, "both"),
    ("sorted", "3 fetch sorted, limit 100", "sqlite3", 1.5, None, "both"),
    ("sections", "4 sectioned count", "sqlite3", 1.5, None, "both"),
    ("loop", "5 Lua loop, all rows", "LuaSQL select *", 1.0, 64, "both"),
    ("loop_two", "5b same, peer reads two columns", "LuaSQL 2 columns", None, None, "both"),
    ("rel_tzone", "8a destination.tzone == ...", "sqlite3 JOIN", 1.1, None, "process+"),
    ("rel_boeing", "8b plane.manufacturer == ...", "sqlite3 JOIN", 1.1, None, "process+"),
    ("rel_sections", "8c sections by airline.name", "sqlite3 JOIN", 1.5, None, "both"),
    ("fold_c", "9a CONTAINS[c]", "sqlite3 LIKE", 2.0, None, "both"),
    ("fold_cd", "9b CONTAINS[cd]", "sqlite3 LIKE", 2.0, None, "both"),
    ("text_dates", "9c date before a day, ISO text dates", "sqlite3 julianday()", None, None, "both"),
    ("members", "9d @count, foreign key not indexed", "sqlite3 GROUP BY", None, None, "both"),
    ("export_csv", "10a export CSV", "sqlite3 -csv", 0.5, None, "both"),
    ("export_json", "10b export JSON", "sqlite3 -json", 0.5, None, "both"),
    ("export_query", "10c export CSV, export({ sql = ... })", "sqlite3 -csv", 1.5, None, "both"),
    ("summarize", "11 summarize Flight", "DuckDB SUMMARIZE", 0.25, None, "process+"),
    ("coredata", "12 Core Data store, count", "sqlite3", 3.0, None, "process"),
    ("coredata_cold", "12b same, model decoded anew", "sqlite3", 4.5, None, "process"),
    ("views", "13 3,000 counts beside 600 views", "sqlite3", 5.0, None, "both"),
    ("inserts", "14 save of 20,000 new objects", "sqlite3 INSERTs", 1.2, None, "inproc+"),
    ("updates", "14b save of 20,000 changed objects", "sqlite3 UPDATEs", 2.0, None, "both"),
    ("inserts_foreign", "14c same as 14, another program's file", "Quarry, its own file", 1.1, None, "process+"),
    ("diff", "15 diff of two stores, 100 rows changed", "sqldiff", 1.0, None, "process+"),
    ("diff_10x", "15b same, 10x the rows", "sqldiff", None, None, "process+"),
    ("pg_count", "P1 PostgreSQL count, filtered", "psql", 1.5, None, "both"),
    ("pg_keypath", "P2 PostgreSQL airlines.name == ...", "psql JOIN", 1.5, None, "both"),
    ("pg_sections", "P3 PostgreSQL sectioned count", "psql", 1.5, None, "both"),
    ("pg_import", "P4 PostgreSQL import (COPY)", "psql \\copy", 1.5, None, "both"),
    ("pg_fold", "P5 PostgreSQL CONTAINS[cd], BEGINSWITH[c]", "psql ILIKE", 2.0, None, "both"),
    ("pg_export_small", "P6a PostgreSQL export 2,242 rows", "psql \\copy", 1.2, None, "both"),
    ("pg_export_big", "P6b PostgreSQL export 224,200 rows", "psql \\copy", 1.2, None, "both"),
    ("pg_export_query", "P6c same, export({ sql = ... })", "psql \\copy", 1.2, None, "both"),
    ("pg_export_sql", "P6d same, export(sql(...)), read whole", "psql \\copy", None, None, "both"),
    ("pg_save", "P7 PostgreSQL save of 27,004 rows", "psql UPDATEs", 1.5, None, "both"),
    ("pg_inserts", "P8 PostgreSQL save of 20,000 new objects", "psql INSERT", 1.5, None, "process+"),
    ("pg_keyed", "P9 PostgreSQL ANY flights.plane.manufacturer == ...", "psql EXISTS JOIN", 1.5, None, "both"),
    ("pg_print", "P10 PostgreSQL print 27,004 rows (select *)", "psql", None, None, "process"),
]
# With --scale, targets that the issue sets for the big file (import within 1.2x), and
# the two-column loop's earlier 1.5x (issue 62's 1.0x was the flights file's); the loop
# against whole rows keeps its 1.0x.
SCALED_TARGETS = {"import": 1.2, "loop_two": 1.5}
# Quarry against itself: (key, title, reference, target ratio of the cost an observer adds
# to a save over a full re-fetch of the observed result).
OBSERVER = ("observer", "6 observer, one save", "re-fetch (ids)", 0.1)
# A cost per item, judged on an absolute limit; the ratio to the peer is for information.
# (key, title, peer, limit in seconds)
PER_ITEM = [
    ("predicate_simple", "7a predicate, simple", "SQLite prepare", 100e-6),
    ("predicate_complex", "7b predicate, complex", "SQLite prepare", 100e-6),
]

TIME_LINE = re.compile(r"^BENCH_TIME\s+([0-9.eE+-]+)\s*$")
MARK_LINE = re.compile(r"^BENCH_T([01])\s+([0-9.eE+-]+)\s*$")
SQLITE_TIMER = re.compile(r"^Run Time: real ([0-9.]+) user [0-9.]+ sys [0-9.]+\s*$")
# psql's \timing line, in milliseconds.
PSQL_TIMER = re.compile(r"^Time: ([0-9.]+) ms(?: \(.*\))?\s*$")
FIGURE_LINE = re.compile(r"^BENCH_FIGURE\s+(\w+)\s+([0-9.eE+-]+)\s*$")


def parse_output(text, inproc):
    """Returns the answer (text less timing lines) and fills inproc from timing lines."""
    kept = []
    for line in text.splitlines():
        m = TIME_LINE.match(line)
        if m:
            inproc["total"] = inproc.get("total", 0.0) + float(m.group(1))
            continue
        m = MARK_LINE.match(line)
        if m:
            inproc["t" + m.group(1)] = float(m.group(2))
            continue
        m = FIGURE_LINE.match(line)
        if m:
            inproc.setdefault("figures", {})[m.group(1)] = float(m.group(2))
            continue
        m = SQLITE_TIMER.match(line)
        if m:
            inproc["total"] = inproc.get("total", 0.0) + float(m.group(1))
            continue
        m = PSQL_TIMER.match(line)
        if m:
            inproc["total"] = inproc.get("total", 0.0) + float(m.group(1)) / 1000
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def run(args):
    results, workload, side = args[0], args[1], args[2]
    rest = args[3:]
    stdin_path, timeout, warmup = os.devnull, 600.0, False
    while rest and rest[0] != "--":
        opt = rest.pop(0)
        if opt == "--stdin":
            stdin_path = rest.pop(0)
        elif opt == "--timeout":
            timeout = float(rest.pop(0))
        elif opt == "--warmup":
            warmup = True
        else:
            sys.exit(f"measure.py run: unknown option {opt}")
    cmd = rest[1:]
    with tempfile.TemporaryDirectory() as tmp:
        out_path, err_path = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, out_path, flags, 0o644),
            (os.POSIX_SPAWN_OPEN, 2, err_path, flags, 0o644),
        ]
        timed_out = threading.Event()
        start = time.perf_counter()
        pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions)

        def kill():
            timed_out.set()
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        with open(out_path, errors="replace") as f:
            out = f.read()
        with open(err_path, errors="replace") as f:
            err = f.read()
    inproc = {}
    answer = parse_output(out, inproc)
    if workload in TABLE_ROWS:
        # A printed table's answer is how many rows it shows: each side lays them out
        # its own way, and the whole text would be cut at 20,000 characters below.
        answer = str(len(TABLE_ROW.findall(answer)))
    stderr_rest = parse_output(err, inproc)
    if "total" in inproc:
        inproc_s = inproc["total"]
    elif "t0" in inproc and "t1" in inproc:
        inproc_s = inproc["t1"] - inproc["t0"]
    else:
        inproc_s = None
    code = os.waitstatus_to_exitcode(status)
    state = "timeout" if timed_out.is_set() else ("ok" if code == 0 else f"exit {code}")
    record = {
        "workload": workload, "side": side, "warmup": warmup, "status": state,
        "wall": wall, "inproc": inproc_s, "rss_kb": usage.ru_maxrss,
        "figures": inproc.get("figures", {}),
        "answer": answer if len(answer) <= 20000 else answer[:20000],
        "stderr": stderr_rest[-2000:],
    }
    with open(results, "a") as f:
        f.write(json.dumps(record) + "\n")
    if state != "ok":
        tail = "\n    ".join(stderr_rest.splitlines()[-5:])
        print(f"  {workload}/{side}: {state} after {wall:.1f} s\n    {tail}", file=sys.stderr)
        return 1
    return 0


def answer(args):
    results, workload, side, value = args
    with open(results, "a") as f:
        f.write(json.dumps({"workload": workload, "side": side, "checked_answer": value.strip()}) + "\n")
    return 0


def wall(args):
    """The whole-process time of the last run of WORKLOAD by SIDE (0 when none ran)."""
    results, workload, side = args
    last = 0.0
    with open(results) as f:
        for line in f:
            r = json.loads(line) if line.strip() else {}
            if r.get("workload") == workload and r.get("side") == side and "wall" in r:
                last = r["wall"]
    print(f"{last:.3f}")
    return 0


def count_rows(args):
    """Rows in an exported file: CSV lines less the header, or JSON objects ('{' bytes;
    flights.csv has no braces in its values). Read in chunks: the file may be 1 GB."""
    kind, path = args
    lines = braces = 0
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                lines += chunk.count(b"\n")
                braces += chunk.count(b"{")
    except OSError as e:
        print(f"no file ({e.strerror})")
        return 0
    print(max(0, lines - 1) if kind == "csv" else braces)
    return 0


def fmt_time(s):
    if s is None:
        return "-"
    if s < 0:
        return "-" + fmt_time(-s)
    if s >= 10:
        return f"{s:.1f} s"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 0.1:
        return f"{s * 1000:.0f} ms"
    if s >= 0.001:
        return f"{s * 1000:.1f} ms"
    if s >= 0.0001:
        return f"{s * 1e6:.0f} \u00b5s"
    return f"{s * 1e6:.1f} \u00b5s"


def fmt_ratio(r):
    if r is None:
        return "-"
    if abs(r) >= 0.1:
        return f"{r:.2f}x"
    if abs(r) >= 0.01:
        return f"{r:.3f}x"
    if abs(r) >= 0.0001:
        return f"{r:.4f}x"
    return f"{r:.1e}x"


def normalized(workload, side, text):
    # sqlite3 prints one line per section; Quarry prints the number of sections.
    # sqldiff prints one statement per changed row; Quarry prints the number of changes.
    if workload in ("sections", "rel_sections", "pg_sections", "diff", "diff_10x") and side == "peer":
        return str(len([l for l in text.splitlines() if l.strip()]))
    return text


def report(args):
    scale = None
    path = args[0]
    rest = args[1:]
    while rest:
        opt = rest.pop(0)
        if opt == "--scale":
            scale = int(rest.pop(0))
        else:
            sys.exit(f"measure.py report: unknown option {opt}")
    records = []
    with open(path) as f:
        for line in f:
            if line.strip():
                records.append(json.loads(line))
    rows = []  # (workload, peer, timing, quarry, peer, ratio, target, result, same)
    notes = []
    reps_seen = set()
    for key, title, peer, target, rss_limit, judged in WORKLOADS:
        if scale is not None:
            target = SCALED_TARGETS.get(key, target)
            title = f"{title} ({scale}x)"
        runs = {s: [r for r in records if r["workload"] == key and r["side"] == s
                    and "status" in r and not r["warmup"]] for s in ("quarry", "peer")}
        if not runs["quarry"] and not runs["peer"]:
            continue
        ok = {s: [r for r in runs[s] if r["status"] == "ok"] for s in runs}
        failed = {s: [r for r in runs[s] if r["status"] != "ok"] for s in runs}
        reps_seen.add(f"{len(runs['quarry'])}")
        # Do both sides give the same answer?
        answers = {}
        for s in ("quarry", "peer"):
            checked = [r["checked_answer"] for r in records
                       if r["workload"] == key and r["side"] == s and "checked_answer" in r]
            if checked:
                answers[s] = checked[-1]
            elif ok[s]:
                answers[s] = normalized(key, s, ok[s][0]["answer"])
        if "quarry" in answers and "peer" in answers:
            same = "yes" if answers["quarry"] == answers["peer"] else "NO"
            if same == "NO":
                notes.append(f"{title}: answers differ: Quarry {answers['quarry'][:60]!r}, "
                             f"peer {answers['peer'][:60]!r}")
        else:
            same = "-"
        for s in ("quarry", "peer"):
            for r in failed[s]:
                notes.append(f"{title}: {s} run {r['status']} after {r['wall']:.1f} s: "
                             + (r["stderr"].strip().splitlines() or [""])[-1][:160])
        timings = (("process", "wall"), ("in-process", "inproc")) if target is not None and judged in ("both", "process+", "inproc+") else (("process", "wall"),)
        if key in FASTEST:
            timings = tuple((f"{t}, fastest", f) for t, f in timings) + tuple((f"{t}, median", f) for t, f in timings)
        for timing, field in timings:
            med = {}
            for s in ("quarry", "peer"):
                values = [r[field] for r in ok[s] if r[field] is not None]
                med[s] = (min(values) if timing.endswith("fastest") else statistics.median(values)) if values else None
            if med["quarry"] is not None and med["peer"]:
                ratio = med["quarry"] / med["peer"]
                ratio_s = f"{ratio:.2f}x"
            else:
                ratio = None
                ratio_s = "-"
            if target is None or timing.endswith(", median") or (judged == "process+" and timing.startswith("in-process")) \
                    or (judged == "inproc+" and timing.startswith("process")):
                target_s, verdict = "-", "-"
            else:
                target_s = f"<= {target:g}x"
                if failed["quarry"] and not ok["quarry"]:
                    verdict = "FAIL"
                elif ratio is None:
                    verdict = "-"
                else:
                    verdict = "PASS" if ratio <= target else "MISS"
            q = fmt_time(med["quarry"]) if ok["quarry"] else (failed["quarry"][0]["status"] if failed["quarry"] else "-")
            p = fmt_time(med["peer"]) if ok["peer"] else (failed["peer"][0]["status"] if failed["peer"] else "-")
            first = timing == timings[0][0]
            rows.append((title if first else "", peer if first else "",
                         timing, q, p, ratio_s, target_s, verdict, same if first else ""))
        if ok["quarry"] and (rss_limit is not None or scale is not None or key.startswith(("export", "diff"))):
            # MiB, as ru_maxrss is in KiB.
            peak = max(r["rss_kb"] for r in ok["quarry"]) / 1024
            peer_peak = max(r["rss_kb"] for r in ok["peer"]) / 1024 if ok["peer"] else None
            rows.append(("", "", "peak RSS", f"{peak:.0f} MiB",
                         f"{peer_peak:.0f} MiB" if peer_peak is not None else "-", "-",
                         f"< {rss_limit} MiB" if rss_limit else "-",
                         ("PASS" if peak < rss_limit else "MISS") if rss_limit else "-", ""))
    observer_rows(records, rows, notes)
    per_item_rows(records, rows, notes)
    flat_memory_rows(records, rows)
    header = ("workload", "peer", "timing", "Quarry", "peer", "Q/peer", "target", "result", "same answer")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    right = {3, 4, 5}

    def line(r):
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        return "  ".join(cells).rstrip()

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for i, r in enumerate(rows):
        if i and r[0]:
            print()
        print(line(r))
    print()
    print("Times are medians (Quarry and peer runs interleaved). 'process': whole-process wall time,")
    print("start-up included on both sides. 'in-process': wall time measured inside each process")
    print("around the work alone. Peak RSS: the largest ru_maxrss over each side's runs (MiB).")
    print("5: judged on each side's fastest run ('fastest'); the medians are for information.")
    if scale is not None:
        print(f"({scale}x): on flights.csv repeated {scale} times (header once).")
    if any(r[0].startswith(("6 ", "7")) for r in rows):
        print("6: Quarry against itself; 'added' is a save's median time with the observer less")
        print("without, over the median time of a new fetch of all the result's ids. 7: time per")
        print("predicate (lazy fetch: parse, bind, compile to SQL) and per SQLite prepare+step;")
        print("the result judges Quarry's time alone, Q/peer is for information.")
    if any(r[0].startswith("15c") for r in rows):
        print("15c: Quarry's peak RSS diffing two stores of 10x the rows (15b) against its own at 1x (15);")
        print("memory is flat when the ratio is within the target.")
    for n in notes:
        print("note: " + n)
    return 0


# Memory that must stay flat as the rows grow: (key, title, workload at 1x, at 10x, the
# largest ratio of Quarry's peak RSS at 10x to its peak at 1x that counts as flat).
FLAT_MEMORY = [("diff_memory", "15c diff memory, 10x rows / 1x", "diff", "diff_10x", 1.2)]


def flat_memory_rows(records, rows):
    """15c: Quarry's peak RSS at 10x the rows against its own at 1x."""
    for _key, title, small, large, limit in FLAT_MEMORY:
        peaks = []
        for workload in (small, large):
            ok, _failed = runs_of(records, workload)
            peaks.append(max(r["rss_kb"] for r in ok["quarry"]) / 1024 if ok["quarry"] else None)
        if peaks[0] is None and peaks[1] is None:
            continue
        ratio = peaks[1] / peaks[0] if None not in peaks and peaks[0] else None
        verdict = "-" if ratio is None else ("PASS" if ratio <= limit else "MISS")
        rows.append((title, "Quarry at 1x", "peak RSS",
                     f"{peaks[1]:.0f} MiB" if peaks[1] is not None else "-",
                     f"{peaks[0]:.0f} MiB" if peaks[0] is not None else "-",
                     fmt_ratio(ratio), f"<= {limit:g}x", verdict, ""))


def runs_of(records, key):
    """(ok runs, failed runs) per side, warm-ups left out."""
    runs = {s: [r for r in records if r["workload"] == key and r["side"] == s
                and "status" in r and not r["warmup"]] for s in ("quarry", "peer")}
    ok = {s: [r for r in runs[s] if r["status"] == "ok"] for s in runs}
    failed = {s: [r for r in runs[s] if r["status"] != "ok"] for s in runs}
    return ok, failed


def failure_notes(title, failed, notes):
    for s in ("quarry", "peer"):
        for r in failed[s]:
            notes.append(f"{title}: {s} run {r['status']} after {r['wall']:.1f} s: "
                         + (r["stderr"].strip().splitlines() or [""])[-1][:160])


def figure(runs, name):
    """The median over runs of a named figure, or None."""
    values = [r.get("figures", {}).get(name) for r in runs]
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def observer_rows(records, rows, notes):
    """Workload 6: what an observer adds to a save, against a full re-fetch."""
    key, title, reference, target = OBSERVER
    ok, failed = runs_of(records, key)
    if not ok["quarry"] and not failed["quarry"]:
        return
    failure_notes(title, failed, notes)
    if not ok["quarry"]:
        rows.append((title, reference, "added, in memory", failed["quarry"][0]["status"], "-", "-",
                     f"<= {target:g}x", "FAIL", ""))
        return
    runs = ok["quarry"]
    n = figure(runs, "rows")
    if n is not None:
        title = f"{title}, {n:,.0f} rows"
    refetch, save = figure(runs, "refetch"), figure(runs, "save")
    observed, reread = figure(runs, "save_observed"), figure(runs, "save_reread")
    bad = [r["answer"] for r in runs if r["answer"] != "ok"]
    same = "NO" if bad else "yes"
    for answer_text in bad[:1]:
        notes.append(f"{title}: the observer's events disagree with a re-fetch: {answer_text[:300]}")

    def added_row(timing, with_observer, judged):
        added = with_observer - save if with_observer is not None and save is not None else None
        ratio = added / refetch if added is not None and refetch else None
        verdict = ("PASS" if ratio <= target else "MISS") if judged and ratio is not None else "-"
        return (timing, fmt_time(added), fmt_time(refetch), fmt_ratio(ratio),
                f"<= {target:g}x" if judged else "-", verdict)

    first = added_row("added, in memory", observed, True)
    rows.append((title, reference) + first + (same,))
    rows.append(("", "", "save, no observer", fmt_time(save), "", "", "", "", ""))
    rows.append(("", "", "save, observed", fmt_time(observed), "", "", "", "", ""))
    rows.append(("", "", "observe(), once", fmt_time(figure(runs, "observe_setup")), "", "", "", "", ""))
    rows.append(("", "") + added_row("added, re-read (limit)", reread, False) + ("",))


def per_item_rows(records, rows, notes):
    """Workload 7: a cost per item, judged on an absolute limit."""
    for key, title, peer, limit in PER_ITEM:
        ok, failed = runs_of(records, key)
        if not any(ok.values()) and not any(failed.values()):
            continue
        failure_notes(title, failed, notes)
        answers = {s: ok[s][0]["answer"] for s in ok if ok[s]}
        same = "-"
        if len(answers) == 2:
            same = "yes" if answers["quarry"] == answers["peer"] else "NO"
            if same == "NO":
                notes.append(f"{title}: answers differ: Quarry {answers['quarry'][:60]!r}, "
                             f"peer {answers['peer'][:60]!r}")
        limit_s = f"< {fmt_time(limit)}"
        def wall(runs):
            values = [r["inproc"] for r in runs if r["inproc"] is not None]
            return statistics.median(values) if values else None

        for timing, get in (("per predicate", wall), ("CPU per predicate", lambda runs: figure(runs, "cpu"))):
            q, p = get(ok["quarry"]), get(ok["peer"])
            ratio = q / p if q is not None and p else None
            if failed["quarry"] and not ok["quarry"]:
                verdict, q_s = "FAIL", failed["quarry"][0]["status"]
            else:
                verdict = "-" if q is None else ("PASS" if q < limit else "MISS")
                q_s = fmt_time(q)
            p_s = fmt_time(p) if ok["peer"] else (failed["peer"][0]["status"] if failed["peer"] else "-")
            first = timing == "per predicate"
            rows.append((title if first else "", peer if first else "", timing, q_s, p_s,
                         fmt_ratio(ratio), limit_s, verdict, same if first else ""))
        parse = figure(ok["quarry"], "parse") if ok["quarry"] else None
        if parse is not None:
            rows.append(("", "", "parse only", fmt_time(parse), "", "", "", "", ""))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    command, args = sys.argv[1], sys.argv[2:]
    if command == "run":
        return run(args)
    if command == "answer":
        return answer(args)
    if command == "report":
        return report(args)
    if command == "wall":
        return wall(args)
    if command == "count-rows":
        return count_rows(args)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
