package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * Access to the fixture trees under {@code src/test/resources/sysfs}.
 */
public final class SysfsFixtures {

	private SysfsFixtures() {
	}

	/**
	 * Return the root of a fixture tree.
	 * @param name the fixture, e.g. {@code mlx5-roce}
	 * @return the directory holding the fixture's device directory
	 */
	public static Path root(String name) {
		URL url = SysfsFixtures.class.getResource("/sysfs/" + name);
		if (url == null) {
			throw new IllegalArgumentException("No sysfs fixture named " + name);
		}
		try {
			return Paths.get(url.toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Copy a fixture tree into a directory, so a test can change it.
	 * @param name the fixture
	 * @param target the directory to copy into
	 * @return {@code target}
	 */
	public static Path copy(String name, Path target) {
		Path source = root(name);
		try (Stream<Path> paths = Files.walk(source)) {
			paths.forEach((path) -> {
				Path destination = target.resolve(source.relativize(path).toString());
				try {
					if (Files.isDirectory(path)) {
						Files.createDirectories(destination);
					}
					else {
						Files.copy(path, destination);
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return target;
	}

}
