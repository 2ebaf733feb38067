"""Example Scrapy project: crawl the offline demo web and clean it with scrapy-webclean."""
