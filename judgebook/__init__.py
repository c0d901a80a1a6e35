"""judgebook: an offline rules reference and judge assistant for Netrunner."""
__version__ = "0.1.0"
