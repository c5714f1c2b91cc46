/**
 * Contract tests of device events and recovery, run on every backend.
 */
@NullMarked
package io.github.rdmacounters.events;

import org.jspecify.annotations.NullMarked;
