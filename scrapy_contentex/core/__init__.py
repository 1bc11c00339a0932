"""Pure extraction core: HTML in, results out. Nothing here imports Scrapy."""
