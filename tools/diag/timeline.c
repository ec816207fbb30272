/* Diagnostic: does the machine change speed over time? Per 5 ms block, the
 * ns per dependent DRAM load (random chase over 512 MiB) and per L1-resident
 * loop iteration, for a few seconds, on the CPU it is pinned to. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  double secs=argc>1?atof(argv[1]):4;
  size_t n=(512u<<20)/sizeof(size_t); size_t*a=malloc(n*sizeof*a);
  for(size_t i=0;i<n;i++)a[i]=i;
  uint64_t s=88172645463325252ull;
  for(size_t i=n-1;i>0;i--){s^=s<<13;s^=s>>7;s^=s<<17;size_t j=s%i;size_t t=a[i];a[i]=a[j];a[j]=t;}
  /* a is now a random permutation; follow it as a cycle-ish chase */
  double end=now()+secs*1e9; size_t p=0; volatile size_t sink; int cpu=sched_getcpu();
  printf("cpu %d\n",cpu);
  while(now()<end){
    double t0=now(); long k=0; while(now()-t0<5e6){for(int r=0;r<256;r++)p=a[p];k+=256;}
    double dram=(now()-t0)/k;
    t0=now(); long m=0; while(now()-t0<1e6){for(int r=0;r<4096;r++)__asm__ volatile("");m+=4096;}
    double l1=(now()-t0)/m;
    printf("%.1f %.3f %d\n",dram,l1,sched_getcpu());
  }
  sink=p;(void)sink;return 0;}
