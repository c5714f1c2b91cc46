package io.github.rdmacounters.testsupport;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file replaced by a FIFO without a writer: a read of it blocks in {@code open}, as a
 * {@code counters/} read blocks while the mlx5 firmware does not answer a MAD
 * ({@code mlx5_cmd_exec} waits up to its command timeout). {@link #answer(String)} puts a
 * regular file back and lets the stuck read return that text, so the next read is a
 * normal one.
 */
public final class StalledFile implements AutoCloseable {

	private final Path path;

	private boolean answered;

	private StalledFile(Path path) {
		this.path = path;
	}

	/**
	 * Replace a file by a FIFO.
	 * @param path the file
	 * @return the stalled file
	 */
	public static StalledFile replace(Path path) {
		try {
			Files.deleteIfExists(path);
			Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
			if (mkfifo.waitFor() != 0) {
				throw new IllegalStateException("mkfifo failed; install coreutils");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return new StalledFile(path);
	}

	/**
	 * End the stall: a regular file with the text takes the FIFO's place, and a read
	 * stuck in the FIFO gets the same text.
	 * @param text what the file holds, e.g. {@code "42\n"}
	 */
	public synchronized void answer(String text) {
		if (this.answered) {
			return;
		}
		this.answered = true;
		try (RandomAccessFile fifo = new RandomAccessFile(this.path.toFile(), "rw")) {
			Path replacement = this.path.resolveSibling(this.path.getFileName() + ".answer");
			Files.writeString(replacement, text);
			Files.move(replacement, this.path, StandardCopyOption.REPLACE_EXISTING);
			fifo.write(text.getBytes(StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Let a stuck read go, if the test has not answered. */
	@Override
	public void close() {
		answer("0\n");
	}

}
