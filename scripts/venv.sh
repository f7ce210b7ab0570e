# Sourced by run.sh and test.sh: a virtual environment in .venv with the given requirements file.
# It sees the system's packages (so nothing is downloaded twice) and installs only what is missing.
venv="${CODAJUDGE_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv --system-site-packages "$venv"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
python -m pip install --quiet --disable-pip-version-check -r "$1"
