// The smallest module there is: one trivial kernel and no headers. Its compile time is
// NVRTC's own start-up and pipeline overhead, the floor under every module.
// warp_module.cu compiles this same kernel behind Warp's runtime header, so the difference
// between the two is the header's share of a module's fixed cost.
extern "C" __global__ void minimal_kernel(float* data, int count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] += 1.0f;
}
