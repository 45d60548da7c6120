// SPDX-License-Identifier: MIT
// expect: 5:26: error: expected '>', found 'l'
import org.binderc.test.Point;
interface I {
    void f(in List<Point l);
}
