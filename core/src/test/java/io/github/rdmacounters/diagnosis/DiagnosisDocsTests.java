package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON shape is documented: every field of every object the report holds has a row in
 * {@code docs/diagnosis.md}, under the schema version the report writes.
 *
 * @author rdma-counters
 */
class DiagnosisDocsTests {

	private static final Path DOCS = Path.of("..", "docs", "diagnosis.md");

	@Test
	void everyFieldOfTheReportIsDocumented() throws IOException {
		String docs = Files.readString(DOCS);
		Set<String> fields = new LinkedHashSet<>();
		collect(DiagnosisReport.class, fields);
		assertThat(fields).hasSizeGreaterThan(60);
		assertThat(fields).allSatisfy((field) -> assertThat(docs).as(field).contains("| `" + field + "` |"));
		assertThat(docs).contains("## JSON shape (schema version " + DiagnosisReport.SCHEMA_VERSION + ")");
	}

	private static void collect(Class<?> type, Set<String> fields) {
		for (RecordComponent component : type.getRecordComponents()) {
			fields.add(component.getName());
			Type generic = component.getGenericType();
			Class<?> element = component.getType();
			if (generic instanceof ParameterizedType parameterized) {
				Type[] arguments = parameterized.getActualTypeArguments();
				if (arguments[arguments.length - 1] instanceof Class<?> argument) {
					element = argument;
				}
			}
			if (element.isRecord()) {
				collect(element, fields);
			}
		}
	}

}
