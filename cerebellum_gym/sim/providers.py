"""Content providers of the simulated phone: the tables behind ``content query`` URIs.

Rows are dicts of strings, as ``content query`` prints them. A URI maps to a table and to the
column values that the URI implies (``content://sms/inbox`` is the ``sms`` table where
``type=1``), so queries and inserts through either URI agree.
"""

from __future__ import annotations

from typing import Final

#: URI -> (table, implied column values).
URIS: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "content://com.android.contacts/data/phones": ("contacts", {}),
    "content://contacts/phones": ("contacts", {}),
    "content://sms": ("sms", {}),
    "content://sms/inbox": ("sms", {"type": "1"}),
    "content://sms/sent": ("sms", {"type": "2"}),
}

CONTACTS_URI: Final = "content://com.android.contacts/data/phones"
SMS_URI: Final = "content://sms"


def resolve(uri: str) -> tuple[str, dict[str, str]]:
    """The table and implied columns of ``uri``.

    Raises:
        KeyError: no provider answers this URI.
    """
    try:
        return URIS[uri.rstrip("/")]
    except KeyError:
        raise KeyError(f"Unknown URI {uri}") from None
