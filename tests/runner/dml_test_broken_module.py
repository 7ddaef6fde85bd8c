"""A backend module that cannot even be imported (a vendor's typo): its error is named, no traceback."""

raise RuntimeError("this module is broken on purpose")
