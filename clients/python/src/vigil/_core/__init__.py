"""Runtime-neutral engine: queue, batching, retry, classification, insights (no framework imports)."""
