# Disjoint sets over 0..n−1 in a `parent` array (a root is its own parent), shared by DBSCAN's
# components of core points (_dbscan_gemm) and the dendrogram of a linkage (_linkage).
#
# A find returns the same root whatever the compression done on the way (compression only points
# nodes at ancestors), so the partition and every root depend on the unions alone: on
# `uf_union`'s rule (the smaller root stays, so a root is its component's smallest element) or
# on the caller's own (a linkage makes both roots children of a new node).
from _types cimport intp_t


cdef inline intp_t uf_find(intp_t *parent, intp_t i) noexcept nogil:
    """Root of i's tree, halving the path on the way (each node visited points at its
    grandparent)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


cdef inline void uf_union(intp_t *parent, intp_t a, intp_t b) noexcept nogil:
    """Merge the trees of a and b; the smaller root stays (roots are the components' smallest
    elements)."""
    a = uf_find(parent, a)
    b = uf_find(parent, b)
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b
