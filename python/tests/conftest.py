import pathlib
import sys

# Tests run against this checkout's package without installing it.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
