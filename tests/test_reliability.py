"""Regression tests of the reliability issue (17): crashes and silent garbage found by fuzzing."""

import numpy as np
import pytest


# Python's Ctrl-C handler, also when the test runs in a background job (which ignores SIGINT)
_LONG_NOGIL_LOOPS = {
    # ~45 000 pairs of the pair driver: many minutes
    "substring": '''
import numpy as np
from kernelkit.kernels import SubstringKernel
rng = np.random.default_rng(0)
X = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 1000)) for _ in range(300)]
run = lambda: SubstringKernel(k=5, n_jobs=2).fit_transform(X)
''',
    # C(3000, 4) = 3.4e12 induced 4-node subgraphs of a graph: hours
    "graphlets": '''
import numpy as np, scipy.sparse as sp
from kernelkit.kernels import GraphletKernel
A = sp.triu(sp.random_array((3000, 3000), density=0.01, random_state=0), k=1)
A = sp.csr_array(((A + A.T) > 0).astype(float))
# two threads: the first may finish the small graph while the other one enumerates
run = lambda: GraphletKernel(k=4, n_jobs=2).fit_transform([(A[:9, :9], [0] * 9), (A, [0] * 3000)])
''',
}
_INTERRUPT_SCRIPT = '''
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
{setup}
print("ready", flush=True)
try:
    run()
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
'''


@pytest.mark.parametrize("loop", sorted(_LONG_NOGIL_LOOPS))
def test_ctrl_c_stops_a_long_nogil_loop(loop):
    # item 7: the nogil loops (pair driver, graphlet enumeration, shortest-path BFS) looked at no
    # signal, so Ctrl-C waited for the whole computation; now they check about every 0.1 s and the
    # wrapper raises KeyboardInterrupt
    import signal
    import subprocess
    import sys
    import time

    script = _INTERRUPT_SCRIPT.format(setup=_LONG_NOGIL_LOOPS[loop])
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)                       # inside the nogil loop by now
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)    # the whole computation would take far longer
    finally:
        proc.kill()
    assert out.strip() == "interrupted"
