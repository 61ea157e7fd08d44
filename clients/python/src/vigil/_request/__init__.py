"""Reading requests: client IP through trusted proxies, headers, method and path."""
