// Seed 001: a particle update with Array of Structures (each lane strides
// over whole 32-byte structs: 32 sectors per request for every field), with
// Structure of Arrays (4), and with AoSoA chunks of 32 (4).
#include "harness.cuh"

struct Particle_AoS {
  float x, y, z;    // position
  float vx, vy, vz; // velocity
  float mass;
  float charge;     // 8 floats = 32 bytes per particle
};

__global__ void update_particles_aos(Particle_AoS *particles, int n, float dt) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    particles[idx].x += particles[idx].vx * dt; // expect: load particles 32/4; load particles 32/4; store particles 32/4
    particles[idx].y += particles[idx].vy * dt; // expect: load particles 32/4; load particles 32/4; store particles 32/4
    particles[idx].z += particles[idx].vz * dt; // expect: load particles 32/4; load particles 32/4; store particles 32/4
  }
}

struct Particles_SoA {
  float *x, *y, *z;
  float *vx, *vy, *vz;
  float *mass;
  float *charge;
};

__global__ void update_particles_soa(Particles_SoA p, int n, float dt) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    p.x[idx] += p.vx[idx] * dt; // expect: load p.x 4/4; load p.vx 4/4; store p.x 4/4
    p.y[idx] += p.vy[idx] * dt; // expect: load p.y 4/4; load p.vy 4/4; store p.y 4/4
    p.z[idx] += p.vz[idx] * dt; // expect: load p.z 4/4; load p.vz 4/4; store p.z 4/4
  }
}

#define SOA_WIDTH 32 // One warp
struct ParticleChunk {
  float x[SOA_WIDTH];
  float y[SOA_WIDTH];
  float z[SOA_WIDTH];
  float vx[SOA_WIDTH];
  float vy[SOA_WIDTH];
  float vz[SOA_WIDTH];
  float mass[SOA_WIDTH];
  float charge[SOA_WIDTH];
};

__global__ void update_particles_aosoa(ParticleChunk *chunks, int n_chunks, float dt) {
  int chunk_idx = blockIdx.x;
  int lane = threadIdx.x; // 0..31
  if (chunk_idx < n_chunks && lane < SOA_WIDTH) {
    ParticleChunk &c = chunks[chunk_idx];
    c.x[lane] += c.vx[lane] * dt; // expect: load chunks 4/4; load chunks 4/4; store chunks 4/4
    c.y[lane] += c.vy[lane] * dt; // expect: load chunks 4/4; load chunks 4/4; store chunks 4/4
    c.z[lane] += c.vz[lane] * dt; // expect: load chunks 4/4; load chunks 4/4; store chunks 4/4
  }
}

int main() {
  const int n = 1 << 20;
  Particle_AoS *aos = sample::alloc<Particle_AoS>(n);
  Particles_SoA soa;
  soa.x = sample::alloc<float>(n);
  soa.y = sample::alloc<float>(n);
  soa.z = sample::alloc<float>(n);
  soa.vx = sample::alloc<float>(n);
  soa.vy = sample::alloc<float>(n);
  soa.vz = sample::alloc<float>(n);
  soa.mass = sample::alloc<float>(n);
  soa.charge = sample::alloc<float>(n);
  ParticleChunk *chunks = sample::alloc<ParticleChunk>(n / SOA_WIDTH);
  // Useful bytes: 6 floats read and 3 written per particle.
  const double B = 9.0 * n * sizeof(float);
  sample::run("aos", B, [&] { update_particles_aos<<<n / 256, 256>>>(aos, n, 0.01f); });
  sample::run("soa", B, [&] { update_particles_soa<<<n / 256, 256>>>(soa, n, 0.01f); });
  sample::run("aosoa", B, [&] { update_particles_aosoa<<<n / SOA_WIDTH, SOA_WIDTH>>>(chunks, n / SOA_WIDTH, 0.01f); });
  return 0;
}
