"""The old name of tilecraft.records (tournament results files): everything is there."""
from __future__ import annotations

from .records import (HEADER_FIELDS, _checked_header, _check_record, _different, _parse_lines,  # noqa: F401
                      _public, load_results, read_header, read_lines, schedule)
