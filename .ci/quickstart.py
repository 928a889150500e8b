"""Print, as a bash script, the commands of README.md's "Quick start" section, verbatim and in
order: each ```bash block's lines run as they are written, with a header naming the command,
its output also written to LOG_DIR/quickstart-<n>.log and its wall time printed after it.

usage: python3 .ci/quickstart.py README.md LOG_DIR > quickstart.sh
"""

import re
import shlex
import sys


def quickstart_commands(readme_text):
    """The command lines of the ```bash blocks between "## Quick start" and the next "## "."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## |\Z)", readme_text, re.S | re.M)
    if section is None:
        raise SystemExit("README.md has no '## Quick start' section")
    blocks = re.findall(r"^```bash\n(.*?)^```", section.group(1), re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def main(readme, log_dir):
    with open(readme, encoding="utf-8") as f:
        commands = quickstart_commands(f.read())
    print("set -euo pipefail")
    for n, command in enumerate(commands, 1):
        log = shlex.quote(f"{log_dir}/quickstart-{n}.log")
        print(f"echo {shlex.quote(f'== README quick start, command {n}: {command}')}")
        print("SECONDS=0")
        # the command runs in this shell (an activated venv carries over to the next one);
        # its output goes to the terminal and to its log
        # (set -e does not see a failure inside the group: the status is checked instead)
        print(f"status=0; {{ {command}\n}} > >(tee {log}) 2>&1 || status=$?")
        print(f"echo \"(command {n} took $SECONDS s, exit status $status)\"")
        print('[ "$status" -eq 0 ] || exit "$status"')


if __name__ == "__main__":
    main(*sys.argv[1:])
