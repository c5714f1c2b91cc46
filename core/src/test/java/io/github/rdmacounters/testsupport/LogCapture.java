package io.github.rdmacounters.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one class logs through {@link System.Logger} (java.util.logging when no
 * other logging is on the class path, as in core's tests), from every level, while open.
 *
 * @author rdma-counters
 */
public final class LogCapture extends Handler implements AutoCloseable {

	private final Logger logger;

	private final Level level;

	private final List<LogRecord> records = new CopyOnWriteArrayList<>();

	private LogCapture(String name) {
		this.logger = Logger.getLogger(name);
		this.level = this.logger.getLevel();
		this.logger.setLevel(Level.ALL);
		this.logger.addHandler(this);
	}

	/**
	 * Capture what a class logs.
	 * @param type the class
	 * @return the capture, to close
	 */
	public static LogCapture of(Class<?> type) {
		return new LogCapture(type.getName());
	}

	/**
	 * Capture what a class logs, named where it is not visible (package-private).
	 * @param name the class's name
	 * @return the capture, to close
	 */
	public static LogCapture of(String name) {
		return new LogCapture(name);
	}

	/**
	 * Return the messages logged at a level, in order.
	 * @param level the level
	 * @return the messages
	 */
	public List<String> messages(Level level) {
		return this.records.stream().filter((r) -> r.getLevel().equals(level)).map(LogRecord::getMessage).toList();
	}

	/**
	 * Return the records logged so far.
	 * @return the records
	 */
	public List<LogRecord> records() {
		return this.records;
	}

	@Override
	public void publish(LogRecord record) {
		this.records.add(record);
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
		this.logger.setLevel(this.level);
	}

}
