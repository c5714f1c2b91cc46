/**
 * Sample application that counts traffic on a simulated (or real) RDMA device.
 */
@NullMarked
package io.github.rdmacounters.sample;

import org.jspecify.annotations.NullMarked;
