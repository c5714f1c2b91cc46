/**
 * Port counters and device information read from {@code /sys/class/infiniband}.
 */
@NullMarked
package io.github.rdmacounters.sysfs;

import org.jspecify.annotations.NullMarked;
