#define WP_NO_BFLOAT16

#define WP_TILE_BLOCK_DIM 1
#define WP_NO_CRT
#include "builtin.h"
#include "deterministic.h"

#define builtin_tid1d() wp::linear_tid<wp_linear_tid>(task_index, dim)
#define builtin_tid2d(x, y) wp::tid(x, y, task_index, dim)
#define builtin_tid3d(x, y, z) wp::tid(x, y, z, task_index, dim)
#define builtin_tid4d(x, y, z, w) wp::tid(x, y, z, w, task_index, dim)

#define builtin_block_dim() wp::block_dim()


// avoid namespacing of float type for casting to float type, this is to avoid wp::float(x), which is not valid in C++
#define float(x) cast_float(x)
#define adj_float(x, adj_x, adj_ret) adj_cast_float(x, adj_x, adj_ret)

#define int(x) cast_int(x)
#define adj_int(x, adj_x, adj_ret) adj_cast_int(x, adj_x, adj_ret)

struct wp_args_alpha_881cd9b1 {
    wp::array_t<wp::float32> a;
};


template <bool wp_linear_contiguous>
static void alpha_881cd9b1_cpu_kernel_forward(
    wp::launch_bounds_t<1> dim,
    size_t task_index,
    wp_args_alpha_881cd9b1 *_wp_args)
{
    static constexpr bool wp_linear_tid = wp_linear_contiguous;
    wp_args_alpha_881cd9b1 wp_contiguous_args;
    if constexpr (wp_linear_contiguous)
    {
        wp_contiguous_args = *_wp_args;
        wp_contiguous_args.a.strides[0] = sizeof(wp::float32);
        _wp_args = &wp_contiguous_args;
    }
    //---------
    // argument vars
    wp::array_t<wp::float32> var_a = _wp_args->a;
    //---------
    // primal vars
    wp::int32 var_0;
    wp::float32* var_1;
    const wp::float32 var_2 = 2.0;
    wp::float32 var_3;
    wp::float32 var_4;
    //---------
    // forward
    // def alpha(a: wp.array(dtype=float)):                                                   <L 4>
    // i = wp.tid()                                                                           <L 5>
    var_0 = builtin_tid1d();
    // a[i] = a[i] * 2.0                                                                      <L 6>
    var_1 = wp::address(var_a, var_0);
    var_4 = wp::load(var_1);
    var_3 = wp::mul(var_4, var_2);
    wp::array_store(var_a, var_0, var_3);
}



template <bool wp_linear_contiguous>
static void alpha_881cd9b1_cpu_kernel_backward(
    wp::launch_bounds_t<1> dim,
    size_t task_index,
    wp_args_alpha_881cd9b1 *_wp_args,
    wp_args_alpha_881cd9b1 *_wp_adj_args)
{
    static constexpr bool wp_linear_tid = wp_linear_contiguous;
    wp_args_alpha_881cd9b1 wp_contiguous_args;
    wp_args_alpha_881cd9b1 wp_contiguous_adj_args;
    if constexpr (wp_linear_contiguous)
    {
        wp_contiguous_args = *_wp_args;
        wp_contiguous_adj_args = *_wp_adj_args;
        wp_contiguous_args.a.strides[0] = sizeof(wp::float32);
        wp_contiguous_adj_args.a.strides[0] = sizeof(wp::float32);
        _wp_args = &wp_contiguous_args;
        _wp_adj_args = &wp_contiguous_adj_args;
    }
    //---------
    // argument vars
    wp::array_t<wp::float32> var_a = _wp_args->a;
    wp::array_t<wp::float32> adj_a = _wp_adj_args->a;
    //---------
    // primal vars
    wp::int32 var_0;
    wp::float32* var_1;
    const wp::float32 var_2 = 2.0;
    wp::float32 var_3;
    wp::float32 var_4;
    //---------
    // dual vars
    wp::int32 adj_0 = {};
    wp::float32 adj_1 = {};
    wp::float32 adj_2 = {};
    wp::float32 adj_3 = {};
    wp::float32 adj_4 = {};
    //---------
    // forward
    // def alpha(a: wp.array(dtype=float)):                                                   <L 4>
    // i = wp.tid()                                                                           <L 5>
    var_0 = builtin_tid1d();
    // a[i] = a[i] * 2.0                                                                      <L 6>
    var_1 = wp::address(var_a, var_0);
    var_4 = wp::load(var_1);
    var_3 = wp::mul(var_4, var_2);
    // wp::array_store(var_a, var_0, var_3);
    //---------
    // reverse
    wp::adj_array_store(var_a, var_0, var_3, adj_a, adj_0, adj_3);
    wp::adj_mul(var_4, var_2, adj_1, adj_2, adj_3);
    wp::adj_address(var_a, var_0, adj_a, adj_0, adj_1);
    // adj: a[i] = a[i] * 2.0                                                                 <L 6>
    // adj: i = wp.tid()                                                                      <L 5>
    // adj: def alpha(a: wp.array(dtype=float)):                                              <L 4>
    return;
}



template <bool wp_linear_contiguous>
static WP_FORCEINLINE void alpha_881cd9b1_cpu_forward_tasks(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args)
{
    for (size_t task_index = 0; task_index < dim->size; ++task_index)
    {
        alpha_881cd9b1_cpu_kernel_forward<wp_linear_contiguous>(*dim, task_index, _wp_args);
    }
}

static WP_FORCEINLINE void alpha_881cd9b1_cpu_forward_dispatch(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args)
{
    wp::tile_shared_storage_t tile_mem;
#if defined(WP_ENABLE_TILES_IN_STACK_MEMORY)
    wp::shared_tile_storage = &tile_mem;
#endif

    const bool wp_linear_contiguous = dim->coord_mult == 1 && ((_wp_args->a.strides[0] == (int)sizeof(wp::float32)));
    if (wp_linear_contiguous)
        alpha_881cd9b1_cpu_forward_tasks<true>(dim, _wp_args);
    else
        alpha_881cd9b1_cpu_forward_tasks<false>(dim, _wp_args);
}

extern "C" {

// Python CPU entry points
WP_API void alpha_881cd9b1_cpu_forward(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args)
{
    alpha_881cd9b1_cpu_forward_dispatch(dim, _wp_args);
}

} // extern C



template <bool wp_linear_contiguous>
static WP_FORCEINLINE void alpha_881cd9b1_cpu_backward_tasks(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args,
    wp_args_alpha_881cd9b1 *_wp_adj_args)
{
    for (size_t task_index = 0; task_index < dim->size; ++task_index)
    {
        alpha_881cd9b1_cpu_kernel_backward<wp_linear_contiguous>(
            *dim, task_index, _wp_args, _wp_adj_args);
    }
}

static WP_FORCEINLINE void alpha_881cd9b1_cpu_backward_dispatch(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args,
    wp_args_alpha_881cd9b1 *_wp_adj_args)
{
    wp::tile_shared_storage_t tile_mem;
#if defined(WP_ENABLE_TILES_IN_STACK_MEMORY)
    wp::shared_tile_storage = &tile_mem;
#endif

    const bool wp_linear_contiguous = dim->coord_mult == 1 && ((_wp_args->a.strides[0] == (int)sizeof(wp::float32)) & (_wp_adj_args->a.strides[0] == (int)sizeof(wp::float32)));
    if (wp_linear_contiguous)
        alpha_881cd9b1_cpu_backward_tasks<true>(dim, _wp_args, _wp_adj_args);
    else
        alpha_881cd9b1_cpu_backward_tasks<false>(dim, _wp_args, _wp_adj_args);
}

extern "C" {

WP_API void alpha_881cd9b1_cpu_backward(
    wp::launch_bounds_t<1> *dim,
    wp_args_alpha_881cd9b1 *_wp_args,
    wp_args_alpha_881cd9b1 *_wp_adj_args)
{
    alpha_881cd9b1_cpu_backward_dispatch(dim, _wp_args, _wp_adj_args);
}

} // extern C

struct wp_args_beta_c6e6286a {
    wp::array_t<wp::float32> a;
    wp::array_t<wp::float32> b;
};


template <bool wp_linear_contiguous>
static void beta_c6e6286a_cpu_kernel_forward(
    wp::launch_bounds_t<1> dim,
    size_t task_index,
    wp_args_beta_c6e6286a *_wp_args)
{
    static constexpr bool wp_linear_tid = wp_linear_contiguous;
    wp_args_beta_c6e6286a wp_contiguous_args;
    if constexpr (wp_linear_contiguous)
    {
        wp_contiguous_args = *_wp_args;
        wp_contiguous_args.a.strides[0] = sizeof(wp::float32);
        wp_contiguous_args.b.strides[0] = sizeof(wp::float32);
        _wp_args = &wp_contiguous_args;
    }
    //---------
    // argument vars
    wp::array_t<wp::float32> var_a = _wp_args->a;
    wp::array_t<wp::float32> var_b = _wp_args->b;
    //---------
    // primal vars
    wp::int32 var_0;
    wp::float32* var_1;
    wp::float32 var_2;
    wp::float32 var_3;
    const wp::float32 var_4 = 1.0;
    wp::float32 var_5;
    //---------
    // forward
    // def beta(a: wp.array(dtype=float), b: wp.array(dtype=float)):                          <L 8>
    // i = wp.tid()                                                                           <L 9>
    var_0 = builtin_tid1d();
    // b[i] = wp.sin(a[i]) + 1.0                                                              <L 10>
    var_1 = wp::address(var_a, var_0);
    var_3 = wp::load(var_1);
    var_2 = wp::sin(var_3);
    var_5 = wp::add(var_2, var_4);
    wp::array_store(var_b, var_0, var_5);
}



template <bool wp_linear_contiguous>
static void beta_c6e6286a_cpu_kernel_backward(
    wp::launch_bounds_t<1> dim,
    size_t task_index,
    wp_args_beta_c6e6286a *_wp_args,
    wp_args_beta_c6e6286a *_wp_adj_args)
{
    static constexpr bool wp_linear_tid = wp_linear_contiguous;
    wp_args_beta_c6e6286a wp_contiguous_args;
    wp_args_beta_c6e6286a wp_contiguous_adj_args;
    if constexpr (wp_linear_contiguous)
    {
        wp_contiguous_args = *_wp_args;
        wp_contiguous_adj_args = *_wp_adj_args;
        wp_contiguous_args.a.strides[0] = sizeof(wp::float32);
        wp_contiguous_adj_args.a.strides[0] = sizeof(wp::float32);
        wp_contiguous_args.b.strides[0] = sizeof(wp::float32);
        wp_contiguous_adj_args.b.strides[0] = sizeof(wp::float32);
        _wp_args = &wp_contiguous_args;
        _wp_adj_args = &wp_contiguous_adj_args;
    }
    //---------
    // argument vars
    wp::array_t<wp::float32> var_a = _wp_args->a;
    wp::array_t<wp::float32> var_b = _wp_args->b;
    wp::array_t<wp::float32> adj_a = _wp_adj_args->a;
    wp::array_t<wp::float32> adj_b = _wp_adj_args->b;
    //---------
    // primal vars
    wp::int32 var_0;
    wp::float32* var_1;
    wp::float32 var_2;
    wp::float32 var_3;
    const wp::float32 var_4 = 1.0;
    wp::float32 var_5;
    //---------
    // dual vars
    wp::int32 adj_0 = {};
    wp::float32 adj_1 = {};
    wp::float32 adj_2 = {};
    wp::float32 adj_3 = {};
    wp::float32 adj_4 = {};
    wp::float32 adj_5 = {};
    //---------
    // forward
    // def beta(a: wp.array(dtype=float), b: wp.array(dtype=float)):                          <L 8>
    // i = wp.tid()                                                                           <L 9>
    var_0 = builtin_tid1d();
    // b[i] = wp.sin(a[i]) + 1.0                                                              <L 10>
    var_1 = wp::address(var_a, var_0);
    var_3 = wp::load(var_1);
    var_2 = wp::sin(var_3);
    var_5 = wp::add(var_2, var_4);
    // wp::array_store(var_b, var_0, var_5);
    //---------
    // reverse
    wp::adj_array_store(var_b, var_0, var_5, adj_b, adj_0, adj_5);
    wp::adj_add(var_2, var_4, adj_2, adj_4, adj_5);
    wp::adj_sin(var_3, adj_1, adj_2);
    wp::adj_address(var_a, var_0, adj_a, adj_0, adj_1);
    // adj: b[i] = wp.sin(a[i]) + 1.0                                                         <L 10>
    // adj: i = wp.tid()                                                                      <L 9>
    // adj: def beta(a: wp.array(dtype=float), b: wp.array(dtype=float)):                     <L 8>
    return;
}



template <bool wp_linear_contiguous>
static WP_FORCEINLINE void beta_c6e6286a_cpu_forward_tasks(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args)
{
    for (size_t task_index = 0; task_index < dim->size; ++task_index)
    {
        beta_c6e6286a_cpu_kernel_forward<wp_linear_contiguous>(*dim, task_index, _wp_args);
    }
}

static WP_FORCEINLINE void beta_c6e6286a_cpu_forward_dispatch(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args)
{
    wp::tile_shared_storage_t tile_mem;
#if defined(WP_ENABLE_TILES_IN_STACK_MEMORY)
    wp::shared_tile_storage = &tile_mem;
#endif

    const bool wp_linear_contiguous = dim->coord_mult == 1 && ((_wp_args->a.strides[0] == (int)sizeof(wp::float32)) & (_wp_args->b.strides[0] == (int)sizeof(wp::float32)));
    if (wp_linear_contiguous)
        beta_c6e6286a_cpu_forward_tasks<true>(dim, _wp_args);
    else
        beta_c6e6286a_cpu_forward_tasks<false>(dim, _wp_args);
}

extern "C" {

// Python CPU entry points
WP_API void beta_c6e6286a_cpu_forward(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args)
{
    beta_c6e6286a_cpu_forward_dispatch(dim, _wp_args);
}

} // extern C



template <bool wp_linear_contiguous>
static WP_FORCEINLINE void beta_c6e6286a_cpu_backward_tasks(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args,
    wp_args_beta_c6e6286a *_wp_adj_args)
{
    for (size_t task_index = 0; task_index < dim->size; ++task_index)
    {
        beta_c6e6286a_cpu_kernel_backward<wp_linear_contiguous>(
            *dim, task_index, _wp_args, _wp_adj_args);
    }
}

static WP_FORCEINLINE void beta_c6e6286a_cpu_backward_dispatch(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args,
    wp_args_beta_c6e6286a *_wp_adj_args)
{
    wp::tile_shared_storage_t tile_mem;
#if defined(WP_ENABLE_TILES_IN_STACK_MEMORY)
    wp::shared_tile_storage = &tile_mem;
#endif

    const bool wp_linear_contiguous = dim->coord_mult == 1 && ((_wp_args->a.strides[0] == (int)sizeof(wp::float32)) & (_wp_adj_args->a.strides[0] == (int)sizeof(wp::float32)) & (_wp_args->b.strides[0] == (int)sizeof(wp::float32)) & (_wp_adj_args->b.strides[0] == (int)sizeof(wp::float32)));
    if (wp_linear_contiguous)
        beta_c6e6286a_cpu_backward_tasks<true>(dim, _wp_args, _wp_adj_args);
    else
        beta_c6e6286a_cpu_backward_tasks<false>(dim, _wp_args, _wp_adj_args);
}

extern "C" {

WP_API void beta_c6e6286a_cpu_backward(
    wp::launch_bounds_t<1> *dim,
    wp_args_beta_c6e6286a *_wp_args,
    wp_args_beta_c6e6286a *_wp_adj_args)
{
    beta_c6e6286a_cpu_backward_dispatch(dim, _wp_args, _wp_adj_args);
}

} // extern C

