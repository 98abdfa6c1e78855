"""The end-of-run report: a table of every target and a PNG per target of coverage and exec/s
over time (gnuplot), from the progress samples the campaign appends to OUT/<target>/progress.tsv."""
import os
import shutil
import subprocess

from .common import atomic_write

PROGRESS_HEADER = "seconds\texecs\texec_per_sec\tcov\tft\tcorpus\tcrashes\n"
COLUMNS = ["target", "time", "cpu time", "execs", "exec/s", "cov start", "cov", "ft", "seeds",
           "new inputs", "merged", "timeouts", "ooms", "crashing inputs", "distinct crashes"]


def read_progress(path):
    rows = []
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 7 and parts[0].replace(".", "").isdigit():
                    rows.append([float(parts[0])] + [int(p) for p in parts[1:]])
    except (OSError, ValueError):
        pass
    return rows


def fmt_time(seconds):
    m, s = divmod(int(seconds), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}" if m >= 60 else f"{m}:{s:02d}"


def table(rows, markdown=False):
    cells = [[r["target"], fmt_time(r["seconds"]), fmt_time(r.get("cpu_seconds", 0)),
              str(r["execs"]), str(r["exec_per_sec"]), str(r.get("cov_start", "-")),
              str(r["cov"]), str(r["ft"]), str(r["seeds"]), str(r["new_inputs"]),
              str(r.get("merged", "-")), str(r.get("timeouts", "-")), str(r.get("ooms", "-")),
              str(r["crash_inputs"]), str(r["unique_crashes"])]
             for r in rows]
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        return "\n".join(lines + ["| " + " | ".join(c) + " |" for c in cells])
    widths = [max(len(x) for x in col) for col in zip(COLUMNS, *cells)]
    fmt = lambda row: "  ".join(x.ljust(w) if i == 0 else x.rjust(w)
                                for i, (x, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(COLUMNS), "-" * len(fmt(COLUMNS))] + [fmt(c) for c in cells])


def plot(target, progress_path, png):
    """Writes png (coverage and exec/s against minutes) and the same as text beside it
    (<png minus .png>.txt, gnuplot's dumb terminal, for a terminal over SSH); returns False
    without gnuplot or data."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot or len(read_progress(progress_path)) < 2:
        return False
    text = png[:-len(".png")] + ".txt"
    common = f"""
set title '{target}: coverage and speed'
set xlabel 'minutes fuzzed'
set ylabel 'coverage (edges)'
set y2label 'exec/s'
set y2tics
set ytics nomirror
set key below
set grid
set datafile separator "\t"
plot '{progress_path}' using ($1/60):4 every ::1 with lines lw 2 title 'coverage (edges)', \
     '' using ($1/60):3 every ::1 axes x1y2 with lines title 'exec/s'
"""
    script = (f"set terminal png size 900,420 noenhanced\nset output '{png}.tmp'\n{common}"
              f"set terminal dumb size 100,28 noenhanced\nset output '{text}.tmp'\nreplot\n")
    r = subprocess.run([gnuplot], input=script, text=True, capture_output=True)
    if r.returncode != 0 or not os.path.exists(png + ".tmp"):
        return False
    os.replace(png + ".tmp", png)
    if os.path.exists(text + ".tmp"):
        os.replace(text + ".tmp", text)
    return True


def write(out, rows, plots):
    md = ["# Campaign report", "", table(rows, markdown=True), ""]
    md += [f"![{t}]({os.path.relpath(p, out)})" for t, p in plots]
    atomic_write(os.path.join(out, "report.md"), "\n".join(md) + "\n")
    atomic_write(os.path.join(out, "report.txt"), table(rows) + "\n")
