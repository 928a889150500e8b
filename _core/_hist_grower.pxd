# The structs of the boosting wing's leaf-wise grower (_hist_grower): the training set of one
# tree, the growth options, the work space, the nodes, and the output node arrays. Cimported by
# its pieces by role: _hist_histogram.pxd (histograms), _hist_splitting.pxd (split search),
# _hist_partition.pxd (partition of a node's samples), _hist_constraints.pxd (monotonic and
# interaction constraints); the heap of open nodes is _best_first_heap.pxd.
from libc.stdint cimport int8_t

from _bitset cimport BITSET_WORDS
from _interrupt cimport InterruptState
from _types cimport int32_t, intp_t, uint8_t, uint32_t

cdef enum:
    N_BINS = 256                    # bins per feature (uint8 codes)
    HIST_STRIDE = 3                 # doubles per bin: Σ g, Σ h, count
    CHUNK = 16384                   # samples per chunk of the parallel gather and partition
    GROUP = 4                       # features per pass of a histogram build
    # Serial work per value, in half nanoseconds, that sizes the team of a parallel loop
    # (kk_team_for_work): a histogram's (feature, sample) value, a gathered sample, a
    # partitioned sample, a bin of a split search.
    HISTOGRAM_COST = 3
    GATHER_COST = 2
    PARTITION_COST = 4
    SPLIT_COST = 6


cdef struct SplitInfo:
    double gain
    intp_t feature
    intp_t bin                      # numeric split: bins <= bin go left
    uint32_t left_bins[BITSET_WORDS]    # categorical split: the bins that go left
    uint8_t missing_go_left
    double sum_gradient_left
    double sum_hessian_left
    intp_t count_left


cdef struct Node:
    intp_t start           # the node's slice of sample_indices
    intp_t stop
    intp_t depth
    intp_t left            # the left child's id (the right one's is left + 1), -1 at a leaf
    double sum_gradients
    double sum_hessians
    double *histogram      # (n_features, N_BINS, HIST_STRIDE), NULL once not needed
    SplitInfo split
    # monotonic constraints only:
    double value           # −G/(H+λ) clipped to the bounds the node was made in
    double lower_bound     # the bounds of its children's values
    double upper_bound
    # interaction constraints only: the node's FeatureSet (shared with its sibling), -1 at the
    # root (every group, every feature)
    intp_t feature_set


cdef struct FeatureSet:
    # interaction constraints: the groups still open on a path, and the features they allow (in
    # increasing order), as slices of GrowerWork.set_items
    intp_t groups
    intp_t n_groups
    intp_t features
    intp_t n_features


cdef struct TrainingData:
    # the binned training set (the same for every tree) and this tree's gradients
    const uint8_t *X_binned        # (n_features columns of n_samples): Fortran order
    intp_t n_samples
    intp_t n_features
    const double *root_counts      # (n_features, N_BINS) samples per bin of the whole data
    const intp_t *n_bins_non_missing
    const uint8_t *has_missing_values
    const uint8_t *is_categorical  # (n_features,) split by sets of bins (categories)
    intp_t missing_bin
    const float *gradients
    const float *hessians
    bint hessians_are_constant


cdef struct GrowthOptions:
    intp_t max_leaf_nodes
    intp_t max_depth               # -1: none
    intp_t min_samples_leaf
    double min_hessian_to_split
    double l2_regularization
    double learning_rate
    const int8_t *monotonic_cst        # (n_features,) −1, 0, 1, or NULL: no monotonic constraint
    # interaction constraints (n_groups = 0: none): the groups' features and every feature's
    # groups, each as CSR arrays sorted within a row
    intp_t n_groups
    const intp_t *group_ptr            # (n_groups + 1,)
    const intp_t *group_features
    const intp_t *feature_group_ptr    # (n_features + 1,)
    const intp_t *feature_groups


cdef struct GrowerWork:
    int32_t *sample_indices        # (n_samples,) every node owns a slice
    int32_t *partition_buffer      # (n_samples,)
    intp_t *chunk_counts           # (n_chunks,) left samples per chunk of a partition
    float *ordered_gradients       # (n_samples,) a node's gradients in slice order
    float *ordered_hessians
    int n_threads
    double min_work_per_thread     # seconds of serial work per thread of a team (kk_team_for_work)
    SplitInfo *candidates          # (2, n_features) the features' best splits of two nodes
    double **free_histograms       # a stack of reusable histogram buffers
    intp_t n_free_histograms
    InterruptState *interrupt
    # interaction constraints: the nodes' feature sets, their items, a mark per feature
    FeatureSet *sets
    intp_t n_sets
    intp_t sets_capacity
    intp_t *set_items
    intp_t n_set_items
    intp_t set_items_capacity
    uint8_t *feature_marks         # (n_features,) all 0 between two uses


cdef struct Grower:
    TrainingData data
    GrowthOptions options
    GrowerWork work


cdef struct NodeArrays:
    # the output: node i of the tree at index i of every array
    intp_t *feature                # split feature, -1 at a leaf
    intp_t *bin                    # bins <= bin go left (a numeric split)
    uint32_t *left_bins            # (max_nodes, BITSET_WORDS) the bins that go left (categorical)
    uint8_t *missing_go_left
    intp_t *left                   # child ids, -1 at a leaf
    intp_t *right
    double *value                  # −ν G/(H+λ)
    intp_t *start                  # slice of sample_indices
    intp_t *stop
    double *gain                   # split gain, 0 at a leaf
