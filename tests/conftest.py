import os
import sys

# Make the shared harness (tests/conformance.py) importable from every game's test folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
