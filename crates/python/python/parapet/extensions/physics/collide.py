"""The contact reports of a step and the results of ray casts."""

from parapet._parapet import CONTACT_MARGIN, ContactEvent, ContactKind, RayHit

__all__ = ["CONTACT_MARGIN", "ContactEvent", "ContactKind", "RayHit"]
