package io.github.rdmacounters.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock tests move by hand.
 */
public final class MutableClock extends Clock {

	private volatile Instant now;

	/**
	 * Create a clock at an instant.
	 * @param now the start time
	 */
	public MutableClock(Instant now) {
		this.now = now;
	}

	/**
	 * Move the clock, forward or (with a negative duration) back.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return this.now;
	}

}
