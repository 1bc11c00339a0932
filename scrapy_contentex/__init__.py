"""scrapy-contentex: page type, article text and product records for Scrapy crawls."""

from .api import classify_page, extract_article, extract_product
from .items import Article, Page, PageType, Product

__all__ = [
    "Addon",
    "Article",
    "Page",
    "PageType",
    "Product",
    "classify_page",
    "extract_article",
    "extract_product",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The add-on imports Scrapy; keep `import scrapy_contentex` cheap for core users.
    if name == "Addon":
        from .addon import Addon

        return Addon
    raise AttributeError(name)
