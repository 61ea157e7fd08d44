-- Concatenates the item arrays of a window's buckets and spans (server/src/behaviors/store.ts). The window read used
-- to unnest every bucket's items to one row each and aggregate them DISTINCT: a function scan per bucket and a sort
-- per window, the largest part of a full window's cost. The server adds the items to a set anyway, so duplicates
-- across buckets cost it nothing; a window's bucket items are bounded (each bucket keeps at most 1,000).
CREATE AGGREGATE vigil_cat_items(text[]) (SFUNC = array_cat, STYPE = text[]);
