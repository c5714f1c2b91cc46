/**
 * Auto-configuration of the live counters page.
 */
@NullMarked
package io.github.rdmacounters.autoconfigure.ui;

import org.jspecify.annotations.NullMarked;
