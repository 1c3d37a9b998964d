/* coalesce-lint built-in minimal cooperative_groups.h: the thread block,
 * the grid and tiles, declared as CUDA's header shapes them (static ranks,
 * tiles of a parent converting to tiles). No bodies: the analysis models
 * these calls itself (analyzer/interp/Groups.cpp). */
#ifndef COALESCE_LINT_BUILTIN_COOPERATIVE_GROUPS_H
#define COALESCE_LINT_BUILTIN_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"
namespace cooperative_groups {
class thread_group {
public:
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ void sync() const;
};
class thread_block : public thread_group {
public:
  static __device__ unsigned int thread_rank();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ void sync();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
};
class grid_group {
public:
  static __device__ unsigned long long thread_rank();
  static __device__ unsigned long long size();
  static __device__ unsigned long long num_threads();
  static __device__ void sync();
};
template <unsigned int Size, class ParentT = void> class thread_block_tile : public thread_group {
public:
  __device__ thread_block_tile();
  template <class P> __device__ thread_block_tile(const thread_block_tile<Size, P> &);
  static __device__ unsigned int thread_rank();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ void sync() const;
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_up(T, unsigned int) const;
  template <class T> __device__ T shfl_down(T, unsigned int) const;
  template <class T> __device__ T shfl_xor(T, unsigned int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned int ballot(int) const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &);
__device__ thread_group tiled_partition(const thread_group &, unsigned int);
template <class Group> __device__ void sync(const Group &);
} // namespace cooperative_groups
#endif
