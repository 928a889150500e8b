# Declarations shared by the decision-tree cores (_tree_builder grows, _tree_predict reads,
# _tree_presort sorts) and by the pieces the builder cimports (_tree_criterion,
# _tree_absolute_error, _tree_splitter_exact, _tree_splitter_hist, _tree_workspace,
# _tree_buffer).
#
# A tree is a set of parallel arrays indexed by node id (node 0 is the root):
#   children_left, children_right  int32   child ids, TREE_LEAF (-1) for a leaf
#   feature                        int32   split feature, TREE_UNDEFINED (-2) for a leaf
#   threshold                      float64 x[feature] <= threshold goes left
#   value                          float64 (n_nodes, n_values): class fractions, mean, median or
#                                          Newton step of the node
# The growth-only arrays (impurity, n_node_samples, weighted_n_node_samples) are built by
# _tree_builder alone (_tree_buffer.pxd).
from libc.stdint cimport uint16_t, uint32_t

from _interrupt cimport InterruptState
from _types cimport int32_t, intp_t, uint8_t

cdef enum:
    TREE_LEAF = -1
    TREE_UNDEFINED = -2


# Software prefetch (GCC/Clang builtin; a no-op elsewhere): the split scans read samples' values
# and statistics in feature order, i.e. at random addresses, a few entries ahead of their use.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define kk_prefetch(address) __builtin_prefetch(address)
    #else
    #define kk_prefetch(address) ((void)0)
    #endif
    """
    void kk_prefetch(const void *address) noexcept nogil


# Constants of the growth, as C macros so that every piece cimporting them reads one definition.
cdef extern from *:
    """
    #define KK_FEATURE_THRESHOLD ((float)1e-7)
    #define KK_PARALLEL_MIN_WORK 262144
    """
    # Feature values closer than this are one value (float32 arithmetic, as scikit-learn).
    const float FEATURE_THRESHOLD "KK_FEATURE_THRESHOLD"
    # Below this many (sample × feature) steps (about a millisecond of work) a node is handled
    # by one thread: a full-depth tree has hundreds of mid-sized nodes, and on a busy machine
    # every parallel region can wait a whole time slice for a descheduled thread (measured: with
    # 2¹⁶ a full-depth tree on 2 shared cores ran slower on 2 threads than on 1).
    const intp_t PARALLEL_MIN_WORK "KK_PARALLEL_MIN_WORK"

cdef enum:
    # Bins per feature of the histogram splitter (codes are uint8).
    MAX_BINS = 255

# Sample ids of the presorted rows: 16 bits when there are fewer than 2¹⁶ samples (half the
# memory and memory traffic of the rows, which hold n_features × n_samples ids per tree).
ctypedef fused index_t:
    uint16_t
    int32_t


# ------------------------------------------------------------------------------------------
# Data structures (all C: a forest grows its trees inside a nogil parallel region)

cdef struct Stat:
    # Per-sample statistics read by the scans.
    double h    # weight; Newton: weight × hessian
    double v    # class code (classification), w·y (regression), −w·gradient (Newton)

cdef struct PresortedRows:
    # The exact splitter's training set.
    const float *X_T                # (n_features, n_samples): X feature by feature
    const void *sorted_samples      # (n_features, n_samples) index_t
    const void *y_order             # (n_samples,) index_t, absolute_error only
    bint compact                    # index_t is uint16_t
    intp_t n_rows                   # presorted rows (n_features, + the y order for abs. error)

cdef struct BinnedColumns:
    # The histogram splitter's training set.
    const uint8_t *codes            # (n_features, n_samples): bin of every value
    const float *lower              # (n_features, MAX_BINS): smallest training value of a bin
    const float *upper              # (n_features, MAX_BINS): largest
    const int32_t *n_bins           # (n_features,)
    const intp_t *offset            # (n_features + 1,): first bin of each feature's histogram
    intp_t total                    # bins of all features
    intp_t n_stats                  # doubles per bin: n_classes + 1, or 3 (v, h, count)

cdef union TrainingData:
    # Tagged by Problem.hist: the representation of the splitter in use.
    PresortedRows rows
    BinnedColumns bins

cdef struct Problem:
    # Read-only description of the training set and the growth parameters, shared by all trees.
    intp_t n_samples
    intp_t n_features
    int criterion
    bint classification
    bint hist                       # the histogram splitter: data.bins, else data.rows
    TrainingData data
    intp_t n_classes
    intp_t n_values                 # per-node outputs: n_classes or 1
    const double *y                 # (n_samples,) class codes, targets or gradients
    const double *hessian           # (n_samples,) Newton only
    intp_t max_depth
    intp_t min_samples_split
    intp_t min_samples_leaf
    intp_t max_features
    intp_t max_leaf_nodes           # <= 0: depth-first growth
    double min_weight_fraction_leaf
    double min_impurity_decrease
    double l2_regularization
    InterruptState *interrupt       # Ctrl-C, looked at between two nodes (_interrupt.pxd)

cdef struct Candidate:
    # Best split position of one feature at one node.
    double proxy
    double threshold
    double ae_left       # absolute_error: Σ w|y − median| of the children (from the scan)
    double ae_right
    intp_t pos           # first position of the right child; end when there is no valid split
    intp_t bin           # hist: last bin of the left child

cdef struct Split:
    intp_t feature
    intp_t pos
    intp_t bin
    double threshold
    double improvement
    double impurity_left
    double impurity_right
    double h_left        # Σ h of the children
    double h_right

cdef struct NodeStats:
    double weight        # Σ w (weighted_n_node_samples)
    double sum_h         # Σ h (equals weight except for Newton)
    double sum_v         # regression: Σ w y; Newton: −Σ w g
    double sum_sq        # squared error: Σ w y²

cdef struct NodeRecord:
    intp_t start
    intp_t end
    intp_t depth
    intp_t parent
    int is_left
    intp_t n_constant    # depth-first: features known constant (prefix of constant_features)
    intp_t row           # exact: a row whose [start, end) holds exactly this node's samples
    double *hist         # hist: this node's histograms of every feature (owned), or NULL:
                         # the drawn features' histograms are then built when evaluated
    # best-first frontier:
    intp_t node_id
    int is_leaf
    Split split

cdef struct RowScratch:
    void *tmp_entries    # (n_samples,) index_t, partition of a row
    double *fen_w        # (n_samples + 1,) absolute_error Fenwick trees
    double *fen_wy
    double *ae_left      # (n_samples,) absolute_error prefix and suffix deviations
    double *ae_right

cdef struct BinScratch:
    int32_t *tmp_samples # (n_samples,) partition of the samples (first thread only)
    double *hist         # (MAX_BINS × n_stats,) one feature's histogram of a node without
                         # histograms of its own; all zero between two uses

cdef union SplitterScratch:
    # Tagged by Problem.hist.
    RowScratch rows
    BinScratch bins

cdef struct Scratch:
    # Per-thread buffers of the node-level parallel loops.
    double *counts       # (n_classes,)
    SplitterScratch of

cdef struct RowState:
    # The exact splitter's per-tree state.
    void *entries                # (n_rows, stride) index_t, the samples of each row
    intp_t stride                # n_active, the row length
    intp_t entries_capacity      # allocated rows × stride
    uint8_t *goes_left           # (n_samples,) side of every sample in the split applied
    uint8_t *skip_row            # (n_rows,) rows the split applied leaves alone
    int32_t *rank                # absolute_error: node-local rank of a sample's y
    double *sorted_y             # absolute_error: the node's y in increasing order

cdef struct BinState:
    # The histogram splitter's per-tree state.
    int32_t *samples             # (n_samples,) sample ids, each node a slice
    Stat *ordered                # stats of a node's samples in slice order

cdef union SplitterState:
    # Tagged by Problem.hist.
    RowState rows
    BinState bins

cdef struct Workspace:
    # Everything one tree needs while it grows; one per thread, reused across its trees.
    int n_threads                # threads inside a node
    intp_t n_active              # samples of positive weight
    Stat *stat                   # (n_samples,)
    double *weight               # (n_samples,)
    intp_t *features             # (n_features,) Fisher–Yates state of the feature draws
    intp_t *constant_features    # (n_features,)
    intp_t *to_eval              # (n_features,) features drawn at the current node
    Candidate *cand              # (n_features,)
    double *node_counts          # (n_classes,)
    double *child_counts         # (n_classes,) the left child's class weights
    double *right_counts         # (n_classes,) the right child's
    double *value_buf            # (n_values,)
    uint32_t rand_state
    double h_total               # Σ h over the tree: normaliser of impurity decreases
    double min_weight_leaf
    SplitterState of
    Scratch *scratch             # (n_threads,)
    int32_t *train_leaves        # OUT (n_samples,) or NULL
    NodeRecord *records          # depth-first stack, or best-first frontier by node id
    intp_t n_records
    intp_t records_capacity


# ------------------------------------------------------------------------------------------
# Where the samples of a node are

cdef inline int32_t _sample_at(const Problem *pb, const Workspace *ws, intp_t row,
                               intp_t p, const index_t *rows) noexcept nogil:
    """The sample at position ``p`` of a node: in presorted row ``row`` (exact splitter), or in
    the partitioned sample ids (histogram splitter)."""
    if pb.hist:
        return ws.of.bins.samples[p]
    return <int32_t>rows[row * ws.of.rows.stride + p]
