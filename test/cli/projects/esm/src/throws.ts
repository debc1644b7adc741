// A models file that throws while loading: the stack must point at this line.
import { ModelBuilder } from 'lifespan-orm';

export const model = new ModelBuilder().build();
throw new RangeError('fixture models failed at line 5');
