"""SI unit constants: a quantity times its unit is its value in SI units
(``90 * DEGREE`` radians, ``50 * KILOMETER_PER_HOUR`` m/s). The values come
from the Rust crate, by name."""

from parapet._parapet import UNITS as _UNITS

METER: float = _UNITS["METER"]
MILLIMETER: float = _UNITS["MILLIMETER"]
CENTIMETER: float = _UNITS["CENTIMETER"]
KILOMETER: float = _UNITS["KILOMETER"]
KILOGRAM: float = _UNITS["KILOGRAM"]
GRAM: float = _UNITS["GRAM"]
TONNE: float = _UNITS["TONNE"]
SECOND: float = _UNITS["SECOND"]
MILLISECOND: float = _UNITS["MILLISECOND"]
RADIAN: float = _UNITS["RADIAN"]
DEGREE: float = _UNITS["DEGREE"]
NEWTON: float = _UNITS["NEWTON"]
NEWTON_METER: float = _UNITS["NEWTON_METER"]
JOULE: float = _UNITS["JOULE"]
NEWTON_PER_METER: float = _UNITS["NEWTON_PER_METER"]
KILOMETER_PER_HOUR: float = _UNITS["KILOMETER_PER_HOUR"]
STANDARD_GRAVITY: float = _UNITS["STANDARD_GRAVITY"]
DEFAULT_GRAVITY: float = _UNITS["DEFAULT_GRAVITY"]

__all__ = [
    "METER",
    "MILLIMETER",
    "CENTIMETER",
    "KILOMETER",
    "KILOGRAM",
    "GRAM",
    "TONNE",
    "SECOND",
    "MILLISECOND",
    "RADIAN",
    "DEGREE",
    "NEWTON",
    "NEWTON_METER",
    "JOULE",
    "NEWTON_PER_METER",
    "KILOMETER_PER_HOUR",
    "STANDARD_GRAVITY",
    "DEFAULT_GRAVITY",
]
