"""The thin Scrapy layer: add-on, pipelines, settings registry. The only place that
imports Scrapy."""
