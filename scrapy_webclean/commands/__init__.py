"""Scrapy commands of scrapy-webclean (registered through the ``scrapy.commands`` entry point)."""
