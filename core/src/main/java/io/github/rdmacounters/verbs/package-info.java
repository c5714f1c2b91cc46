/**
 * JNA binding of libibverbs: devices, ports, flows and flow counters, Spring-free.
 */
@NullMarked
package io.github.rdmacounters.verbs;

import org.jspecify.annotations.NullMarked;
