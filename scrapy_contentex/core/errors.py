"""Errors the core raises; the Scrapy layer turns them into counted skips."""


class ContentexError(Exception):
    """Base class: ``reason`` is a short stable slug used in stats keys."""

    reason = "error"

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        if reason:
            self.reason = reason


class NotHtmlError(ContentexError):
    """The input is not an HTML document (binary, JSON, empty...)."""

    reason = "not_html"


class EmptyDocumentError(ContentexError):
    """The input holds no markup or text at all."""

    reason = "empty"


class TooLargeError(ContentexError):
    """The input is over the configured size limit."""

    reason = "too_large"
