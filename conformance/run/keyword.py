"""`-k EXPR`: pytest's keyword expressions over a case's id, operator, data type and tags.

Grammar (as pytest's): `expr := or; or := and ('or' and)*; and := not ('and' not)*;
not := 'not' not | '(' expr ')' | WORD`.  A WORD matches when it is a substring of the case
id, the operator, the data type or one of the tags, case-insensitively.  Words may hold
letters, digits and `_ - . * : / [ ]`.  A malformed expression is a ValueError saying where,
and so is one nested deeper than MAX_DEPTH (parentheses and `not`s): the parser recurses, and a
3,000-deep expression would otherwise end in Python's RecursionError.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..support.text import shown

_TOKEN = re.compile(r"\s*(?:(\()|(\))|([\w\-.*:/\[\]]+))")
Matcher = Callable[[Iterable[str]], bool]
MAX_DEPTH = 100  # nesting far past any written expression, far below Python's recursion limit


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"-k {shown(text)}: unexpected character {text[pos:].lstrip()[0]!r} at column {pos + 1}")
        out.append(m.group(m.lastindex or 0))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise ValueError(f"-k {shown(self.text)}: the expression ends too early")
        self.pos += 1
        return token

    def parse(self) -> Matcher:
        if not self.tokens:
            raise ValueError("-k: an empty expression")
        matcher = self.or_()
        if self.peek() is not None:
            raise ValueError(f"-k {shown(self.text)}: unexpected {self.peek()!r}")
        return matcher

    def or_(self) -> Matcher:
        parts = [self.and_()]
        while self.peek() == "or":
            self.take()
            parts.append(self.and_())
        return parts[0] if len(parts) == 1 else (lambda words: any(p(words) for p in parts))

    def and_(self) -> Matcher:
        parts = [self.not_()]
        while self.peek() == "and":
            self.take()
            parts.append(self.not_())
        return parts[0] if len(parts) == 1 else (lambda words: all(p(words) for p in parts))

    def not_(self) -> Matcher:
        token = self.take()
        if token in ("not", "("):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ValueError(f"-k: the expression nests parentheses and 'not' more than {MAX_DEPTH} deep")
            try:
                return self._nested(token)
            finally:
                self.depth -= 1
        if token in (")", "and", "or"):
            raise ValueError(f"-k {shown(self.text)}: unexpected {token!r}")
        word = token.lower()
        return lambda words: any(word in w.lower() for w in words)

    def _nested(self, token: str) -> Matcher:
        if token == "not":
            inner = self.not_()
            return lambda words: not inner(words)
        if token == "(":
            inner = self.or_()
            if self.take() != ")":
                raise ValueError(f"-k {shown(self.text)}: a '(' without its ')'")
        return inner


def parse_keyword(text: str) -> Matcher:
    """A predicate over a case's words (id, operator, data type, tags)."""
    return _Parser(text).parse()
