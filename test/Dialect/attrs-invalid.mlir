// RUN: credit-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{cluster size must be 1, 2, 4, 8 or 16, got 3}}
func.func @cluster_3() attributes {t = #credit.tiling<cluster = 3, threads = 256, vector = 4, elems = 4>}

// -----

// expected-error @+1 {{cluster size must be 1, 2, 4, 8 or 16, got 32}}
func.func @cluster_32() attributes {t = #credit.tiling<cluster = 32, threads = 256, vector = 4, elems = 4>}

// -----

// expected-error @+1 {{threads per CTA must be a multiple of 32 between 32 and 1024, got 100}}
func.func @threads_100() attributes {t = #credit.tiling<cluster = 1, threads = 100, vector = 4, elems = 4>}

// -----

// expected-error @+1 {{threads per CTA must be a multiple of 32 between 32 and 1024, got 2048}}
func.func @threads_2048() attributes {t = #credit.tiling<cluster = 1, threads = 2048, vector = 4, elems = 4>}

// -----

// expected-error @+1 {{vector width must be 1, 2, 4, 8 or 16, got 3}}
func.func @vector_3() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 3, elems = 3>}

// -----

// expected-error @+1 {{elements per thread (6) must be a multiple of the vector width (4) from 4 to 4096}}
func.func @elems_6() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 6>}

// -----

// expected-error @+1 {{elements per thread (8192) must be a multiple of the vector width (4) from 4 to 4096}}
func.func @elems_8192() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 8192>}

// -----

// A negative or too large count is reported as written, not wrapped.
// expected-error @+2 {{expected a count from 0 to 4294967295, got -32}}
// expected-error @+1 {{failed to parse Credit_TilingAttr parameter 'threads'}}
func.func @threads_negative() attributes {t = #credit.tiling<cluster = 1, threads = -32, vector = 4, elems = 4>}

// -----

// expected-error @+2 {{expected a count from 0 to 4294967295, got 4294967296}}
// expected-error @+1 {{failed to parse Credit_TilingAttr parameter 'elems'}}
func.func @elems_wrapped() attributes {t = #credit.tiling<cluster = 1, threads = 32, vector = 4, elems = 4294967296>}

// -----

// expected-error @+1 {{elements per thread (2147483648) must be a multiple of the vector width (4) from 4 to 4096}}
func.func @elems_2_31() attributes {t = #credit.tiling<cluster = 1, threads = 32, vector = 4, elems = 2147483648>}

// -----

// expected-error @+1 {{rows per CTA (3) must split the CTA's 256 threads into whole warps}}
func.func @rows_3() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4, rows = 3>}

// -----

// expected-error @+1 {{more than one row per CTA needs cluster size 1}}
func.func @rows_cluster() attributes {t = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 4, rows = 2>}

// -----

// expected-error @+2 {{expected one of [registers, shared, reread, async, mixed] for staging, got: global}}
// expected-error @+1 {{failed to parse Credit_TilingAttr parameter 'staging'}}
func.func @staging() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4, staging = global>}

// -----

// expected-error @+2 {{expected one of [async, barrier] for exchange, got: dsmem}}
// expected-error @+1 {{failed to parse Credit_TilingAttr parameter 'exchange'}}
func.func @exchange() attributes {t = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 4, exchange = dsmem>}

// -----

// expected-error @+1 {{exchange = barrier says how the CTAs of a cluster exchange partial values; it needs a cluster of more than one CTA}}
func.func @exchange_one_cta() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4, exchange = barrier>}

// -----

// expected-error @+1 {{cost estimate rows must be at least 1, got 0}}
func.func @cost_rows() attributes {c = #credit.cost<rows = 0, profitable = true, candidates = [
    #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4> = 1.0]>}

// -----

// expected-error @+1 {{variant min_rows must be at least 1, got 0}}
func.func @variant_min() attributes {v = #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4>, min_rows = 0, max_rows = 0>}

// -----

// expected-error @+1 {{variant max_rows (3) must be 0 (no bound) or at least min_rows (5)}}
func.func @variant_max() attributes {v = #credit.variant<tiling = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4>, min_rows = 5, max_rows = 3>}

// -----

// expected-error @+1 {{cost estimate needs at least one candidate}}
func.func @no_candidates() attributes {c = #credit.cost<rows = 4096, profitable = true, candidates = []>}

// -----

// expected-error @+1 {{predicted time must be finite and non-negative, got -1}}
func.func @negative_time() attributes {c = #credit.cost<rows = 4096, profitable = true, candidates = [
    #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4> = -1.0]>}

// -----

// expected-error @+1 {{expected 'true' or 'false'}}
func.func @profitable_word() attributes {c = #credit.cost<rows = 4096, profitable = maybe, candidates = []>}

// -----

// expected-error @+2 {{expected '='}}
func.func @candidate_time() attributes {c = #credit.cost<rows = 4096, profitable = true, candidates = [
    #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4>]>}

// -----

// expected-error @+2 {{expected ::mlir::credit::CombinerKind to be one of: add, max, min, addexp}}
// expected-error @+1 {{failed to parse Credit_CombinerKindAttr parameter 'value'}}
func.func @combiner_kind() attributes {k = #credit.combiner<mul>}

// -----

// expected-error @+1 {{clusters per row (splits) must be from 1 to 64, got 0}}
func.func @splits_zero() attributes {t = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 4, splits = 0>}

// -----

// expected-error @+1 {{clusters per row (splits) must be from 1 to 64, got 65}}
func.func @splits_many() attributes {t = #credit.tiling<cluster = 2, threads = 256, vector = 4, elems = 4, splits = 65>}

// -----

// expected-error @+1 {{a row split over 2 clusters needs one row per CTA, got 2}}
func.func @splits_rows() attributes {t = #credit.tiling<cluster = 1, threads = 256, vector = 4, elems = 4, rows = 2, splits = 2>}
