"""
A benchmark, run while this page was built
==========================================

``kernelkit bench`` times kernelkit against its pure-Python twin and the library
people use today, in one process, alternating the contenders so that a busy machine slows them
all alike. The same harness is a Python API (:mod:`kernelkit.bench`): here the shipped k-means
suite runs on two small cases of its own, and its median times are drawn as bars. The numbers
are those of the machine that built this page (described below the chart); they are noisy on a
shared machine, the ratios less so.
"""

import dataclasses
import textwrap

import matplotlib.pyplot as plt
import numpy as np

from kernelkit.bench import format_table, load_suite, run_suite

suite = dataclasses.replace(
    load_suite("kmeans"),
    cases=lambda quick: [dict(mode="iteration", n=5_000, d=20, k=20),
                         dict(mode="iteration", n=50_000, d=10, k=20)],
    repeats=3,
)
rows = run_suite(suite, quick=True, log=lambda *args: None)
table = format_table(suite, rows, quick=True)

cases = list(dict.fromkeys(", ".join(f"{k}={v}" for k, v in r["case"].items()) for r in rows))
contenders = list(dict.fromkeys(r["contender"] for r in rows if "time" in r))
width = 0.8 / len(contenders)
fig, ax = plt.subplots(figsize=(9, 4))
for i, name in enumerate(contenders):
    times = [next((r["time"] * 1e3 for r in rows if r["contender"] == name and "time" in r
                   and ", ".join(f"{k}={v}" for k, v in r["case"].items()) == case), np.nan)
             for case in cases]
    ax.bar(np.arange(len(cases)) + i * width, times, width, label=name)
ax.set_xticks(np.arange(len(cases)) + width * (len(contenders) - 1) / 2, cases)
ax.set_yscale("log")
ax.set_ylabel("median time per Lloyd iteration (ms, log scale)")
ax.set_title("k-means, one Lloyd iteration: kernelkit, its NumPy twin, scikit-learn")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# The report of the command line (``bench kmeans --quick`` writes it as Markdown to
# ``kmeans-quick.md``): the suite, this machine, then the median times (the Markdown table also
# lists each contender's results, e.g. the inertia):
header = table[:table.index("\n| ")]
for paragraph in header.splitlines():
    print(textwrap.fill(paragraph, width=88))
print()
print(f"{'case':<36} {'contender':<24} {'median':>9} {'ratio':>7}")
for r in rows:
    case = ", ".join(f"{k}={v}" for k, v in r["case"].items())
    if "time" in r:
        print(f"{case:<36} {r['contender']:<24} {r['time'] * 1e3:>6.3g} ms {r['ratio']:>7.3f}")
    else:
        print(f"{case:<36} {r['contender']:<24} {r.get('note', '')}")
